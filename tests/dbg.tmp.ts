import { DESKTOP, launchBrowser, openConnected } from './browser/browserHarness';
import { sendAndWaitForReply } from './browser/pageMetrics';
import { LONG_REPLY_PROMPT, seedConversation, startScriptedHost } from './browser/scriptedModel';

const [browser, h] = await Promise.all([launchBrowser(), startScriptedHost(12)]);
await seedConversation(h.host, 40);
const { page, context } = await openConnected(browser, h, DESKTOP);
await sendAndWaitForReply(page, LONG_REPLY_PROMPT);
for (let i = 0; i < 3; i++) {
  console.log(
    await page.evaluate(`(() => { const el = document.querySelector('.messages'); const ol = el.querySelector('ol'); const lis = [...ol.children]; const last = lis.at(-1); const cs = getComputedStyle(ol);
  return JSON.stringify({ fromEnd: el.scrollHeight - el.scrollTop - el.clientHeight, scrollH: el.scrollHeight, olH: ol.offsetHeight, olPad: [cs.paddingTop, cs.paddingBottom], lastBottom: last.getBoundingClientRect().bottom - ol.getBoundingClientRect().top, lastH: last.offsetHeight, n: lis.length, overflow: [...last.querySelectorAll('*')].map(e => e.getBoundingClientRect().bottom - last.getBoundingClientRect().bottom).reduce((a,b)=>Math.max(a,b), -999) }); })()`),
  );
  await page.waitForTimeout(500);
}
await context.close();
await browser.close();
await h.close(true);
