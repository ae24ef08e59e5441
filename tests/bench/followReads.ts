/**
 * Reads of the message list's end per streamed word: how often the page asks the scrolling view
 * for its `scrollHeight`, `clientHeight` and `scrollTop`, and writes `scrollTop`, while a reply
 * streams into the end of a 2,000-message agent conversation on a phone-sized page. A read
 * after the page changed is a forced layout, which a key pressed meanwhile waits behind
 * (issue 29: following the end was the streaming profile's top function). Counts, not times:
 * they hardly move with the machine's load, so a before/after comparison holds on a busy
 * machine where the slow-phone bench's times do not.
 *
 * Run: pnpm --filter @webbridge/web build && node --import tsx tests/bench/followReads.ts
 * Options: `--words 200` (the reply's length), `--runs 2`; WEBBRIDGE_BENCH_WEB_DIST=<dist>
 * measures another build.
 */
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertWebBuilt, launchBrowser, PHONE } from '../browser/browserHarness';
import { startSlowPhoneScene, streamedReply } from './slowPhoneScene';

const CODE = 'bench-follow-reads-8t2v';
const option = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const words = Number(option('--words') ?? 200);
const runs = Number(option('--runs') ?? 2);
const dist =
  process.env.WEBBRIDGE_BENCH_WEB_DIST ??
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/** Page-side: counts the scrolling view's reads and writes while `window.__counting` is set. */
const COUNTERS = `(() => {
  const counts = { scrollHeight: 0, clientHeight: 0, scrollTopRead: 0, scrollTopWrite: 0 };
  window.__reads = counts;
  const ours = (el) => window.__counting && el instanceof HTMLElement && el.classList.contains('messages');
  for (const name of ['scrollHeight', 'clientHeight']) {
    const own = Object.getOwnPropertyDescriptor(Element.prototype, name);
    Object.defineProperty(Element.prototype, name, {
      configurable: true,
      get() { if (ours(this)) counts[name]++; return own.get.call(this); },
    });
  }
  const top = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop');
  Object.defineProperty(Element.prototype, 'scrollTop', {
    configurable: true,
    get() { if (ours(this)) counts.scrollTopRead++; return top.get.call(this); },
    set(value) { if (ours(this)) counts.scrollTopWrite++; top.set.call(this, value); },
  });
})()`;

type Counts = { scrollHeight: number; clientHeight: number; scrollTopRead: number; scrollTopWrite: number };

async function main(): Promise<void> {
  if (!process.env.WEBBRIDGE_BENCH_WEB_DIST) assertWebBuilt();
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(', ');
  console.log(`follow reads — ${new Date().toISOString()}, web: ${dist}`);
  console.log(
    `load average at start: ${load()} on ${cpus().length} cores; a reply of ${words} words, ${runs} runs`,
  );
  const scene = await startSlowPhoneScene(CODE, dist);
  const browser = await launchBrowser();
  try {
    await scene.select(scene.long);
    const rows: Counts[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.addInitScript(COUNTERS);
      await page.goto(`${scene.host.url}/#code=${CODE}`);
      await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout: 120_000 });
      await page.evaluate('new Promise((r) => setTimeout(r, 1000))');
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill(`>${streamedReply(words)}`);
      await page.evaluate('window.__counting = true');
      await box.press('Enter');
      await page.locator('.message-assistant.status-streaming').waitFor({ timeout: 60_000 });
      await page
        .locator('.message-assistant.status-streaming')
        .waitFor({ state: 'detached', timeout: 120_000 });
      await page.evaluate('window.__counting = false');
      rows.push((await page.evaluate('window.__reads')) as Counts);
      await context.close();
    }
    const per = (n: number) => (n / words).toFixed(2);
    console.log(
      '| run | scrollHeight reads / word | clientHeight reads / word | scrollTop reads / word | scrollTop writes / word |',
    );
    console.log('|---|---|---|---|---|');
    for (const [i, c] of rows.entries())
      console.log(
        `| ${i + 1} | ${per(c.scrollHeight)} | ${per(c.clientHeight)} | ${per(c.scrollTopRead)} | ${per(c.scrollTopWrite)} |`,
      );
    console.log(`load average at the end: ${load()}`);
  } finally {
    await browser.close();
    await scene.close();
  }
}

await main();
