import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE, shot } from './browserHarness';
import { INSTANT_MODEL, startScriptedHost } from './scriptedModel';

/**
 * Replies a prompt injection can make a model write. On the old page the first two overflowed
 * the parser's stack (the app unmounted, and every reload was blank while the conversation was
 * current); the third held the page for 9–14 s.
 */
const HOSTILE: readonly { readonly name: string; readonly reply: string; readonly slow: boolean }[] = [
  { name: '20,000 nested quotes', reply: `${'>'.repeat(20_000)} hi`, slow: false },
  { name: '6,000 nested list markers', reply: `${'- '.repeat(6_000)}x`, slow: false },
  { name: '100,000 characters of _a_a…', reply: '_a'.repeat(49_990), slow: true },
];

/**
 * Records the longest gap between two animation frames from now on, in the page: a frame that
 * does not come is a page that does not paint. Recorded from the key press that sends the question
 * to the notice on the reply: the person's own long message and the reply are all that is
 * drawn meanwhile.
 */
const START_FRAMES = `(() => {
  const g = { max: 0, last: performance.now(), on: true };
  window.__frames = g;
  const tick = (t) => { g.max = Math.max(g.max, t - g.last); g.last = t; if (g.on) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})()`;
const STOP_FRAMES = '(() => { window.__frames.on = false; return window.__frames.max; })()';

/**
 * Sends `>reply` (the scripted model answers with `reply` as written, at once), recording the
 * frames from the key press on when `frames` is set.
 */
async function provoke(page: Page, reply: string, frames = false): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(`>${reply}`);
  if (frames) await page.evaluate(START_FRAMES);
  await box.press('Enter');
}

describe('replies that cannot hurt the page, in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startScriptedHost()]);
    await h.host.controller.executor.run(() => h.host.controller.conversations.setModel(INSTANT_MODEL));
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('keeps painting while each arrives, shows it as written with a notice, and works after a reload', async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE);
    const gaps: Record<string, number> = {};
    const outcomes: string[] = [];
    for (const [i, { name, reply, slow }] of HOSTILE.entries()) {
      await provoke(page, reply, true);
      const answer = page.locator('.message-assistant').nth(i);
      await answer.and(page.locator('.status-complete')).waitFor({ timeout: 20_000 });
      // Shown as written with the notice, or (the last one only) formatted by the worker
      // when it finished within its 3 s deadline on a quiet machine.
      const notice = answer.locator('.markdown-notice');
      // (`_a_a…` has no emphasis: an underscore inside a word opens none.)
      const formatted = answer.locator('.body.markdown > p');
      await (slow ? notice.or(formatted) : notice).first().waitFor({ timeout: 15_000 });
      gaps[name] = Math.round(Number(await page.evaluate(STOP_FRAMES)));
      if (await notice.count()) expect(await answer.locator('.markdown-plain').textContent()).toBe(reply);
      else outcomes.push(`${name}: formatted in the worker`);
    }
    // The figure the issue asks for, printed for the record.
    console.log('longest frame gap while a hostile reply arrived (ms, 1x CPU):', gaps, outcomes);
    for (const gap of Object.values(gaps)) expect(gap).toBeLessThan(200);
    await shot(page, 'phone-hostile-replies');

    // The conversation is still the current one: the page opens it again, and it works.
    await page.reload();
    await page.locator('.badge[data-status="live"]').waitFor();
    // The replies nested too deeply are refused again (the third may be formatted this time).
    for (const i of [0, 1])
      await page
        .locator('.message-assistant')
        .nth(i)
        .locator('.markdown-notice')
        .waitFor({ timeout: 15_000 });
    await provoke(page, 'Still **here**.');
    await page
      .locator('.message-assistant')
      .nth(HOSTILE.length)
      .locator('strong')
      .waitFor({ timeout: 15_000 });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
