/**
 * A slow phone and a long chat (issue 20): Chromium at 390×844 with its CPU throttled 6× (a
 * low-end Android phone) and unthrottled, a 2,000-message conversation, a reply streaming one
 * word per 30 ms while the person types. Prints, per CPU rate:
 * - navigation to the last message visible (target ≤ 1.5 s at 6×),
 * - the longest main-thread task while the reply streams (PerformanceObserver 'longtask';
 *   target ≤ 100 ms),
 * - key press to character painted, p90 and max (targets ≤ 50 and ≤ 150 ms),
 * - the page's JavaScript heap and DOM nodes after a GC, against a 50-message conversation
 *   (target: ≤ 1.5× the small one's heap plus the long one's text).
 *
 * A real host runs in this process (scripted models, SQLite in a temporary folder); Debian's
 * Chromium loads the built page from it over loopback.
 * Run: pnpm --filter @webbridge/web build && node --import tsx tests/bench/slowPhone.ts
 * (`--rates 6` measures one rate; WEBBRIDGE_BENCH_WEB_DIST measures another build.)
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningHost } from '@webbridge/host';
import type { Browser, Page } from 'playwright-core';
import { assertWebBuilt, launchBrowser, PHONE } from '../browser/browserHarness';
import { startSlowPhoneScene, streamedReply, WHEN_KEY_PAINTED, WORD_MS } from './slowPhoneScene';
import { printTable, quantile } from './table';

const CODE = 'bench-slow-phone-4k7w';
const KEYS = 40;
const rates = (() => {
  const i = process.argv.indexOf('--rates');
  return i < 0 ? [6, 1] : (process.argv[i + 1] ?? '6').split(',').map(Number);
})();
const dist =
  process.env.WEBBRIDGE_BENCH_WEB_DIST ??
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/** Page-side recorders, installed before the page's own scripts (CDP, so the CSP allows them). */
const RECORDERS = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // A long animation frame also counts the style, layout and paint a task caused, which a
  // key press waits for too; its scripts say where the time went.
  window.__longFrames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__longFrames.push({
        start: e.startTime,
        duration: e.duration,
        blocking: e.blockingDuration,
        render: e.duration - (e.renderStart ? e.renderStart - e.startTime : e.duration),
        scripts: e.scripts.map((s) => \`\${Math.round(s.duration)}ms \${s.invoker} \${s.sourceFunctionName}@\${s.sourceURL.split('/').pop()}:\${s.sourceCharPosition}\`),
      });
  }).observe({ type: 'long-animation-frame', buffered: true });
  window.__keys = [];
  ${WHEN_KEY_PAINTED}((ms) => window.__keys.push(ms));
})()`;

interface Measured {
  readonly lastVisibleMs: number;
  readonly longestTaskMs: number;
  readonly tasksOver100: number;
  readonly longestFrameMs: number;
  readonly keyP90: number;
  readonly keyMax: number;
  readonly heapMiB: number;
  readonly nodes: number;
}

/** When the message `id` is inside the viewport (ms since navigation started, in the page). */
async function whenVisible(page: Page, id: string): Promise<number> {
  const handle = await page.waitForFunction(
    (wanted: string) => {
      const g = globalThis as unknown as {
        document: {
          querySelector(s: string): { getBoundingClientRect(): { top: number; bottom: number } } | null;
        };
        innerHeight: number;
        performance: { now(): number };
      };
      const el = g.document.querySelector(`[data-message-id="${wanted}"]`);
      if (!el) return false;
      const box = el.getBoundingClientRect();
      return box.bottom > 0 && box.top < g.innerHeight ? g.performance.now() : false;
    },
    id,
    { polling: 'raf', timeout: 120_000 },
  );
  return Number(await handle.jsonValue());
}

async function measure(
  browser: Browser,
  host: RunningHost,
  rate: number,
  stream: boolean,
): Promise<Measured> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await cdp.send('Performance.enable');
  await page.addInitScript(RECORDERS);
  const lastId = host.controller.readState().conversations.messages.at(-1)?.id ?? '';
  const profilingOpen = stream && process.env.WEBBRIDGE_BENCH_PROFILE_OPEN;
  if (profilingOpen) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(`${host.url}/#code=${CODE}`);
  const lastVisibleMs = await whenVisible(page, lastId);
  if (profilingOpen) {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
    writeFileSync(profilingOpen, JSON.stringify(profile));
  }
  await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout: 120_000 });
  await page.evaluate('new Promise((r) => setTimeout(r, 1000))');

  let longestTaskMs = 0;
  let tasksOver100 = 0;
  let longestFrameMs = 0;
  let keys: number[] = [];
  if (stream) {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(`>${streamedReply(400)}`);
    await box.press('Enter');
    await page.locator('.message-assistant.status-streaming .body').waitFor({ timeout: 60_000 });
    const profiling = process.env.WEBBRIDGE_BENCH_PROFILE;
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const from = Number(await page.evaluate('performance.now()'));
    await box.focus();
    for (let i = 0; i < KEYS; i++) {
      await page.keyboard.press('a');
      await page.evaluate('new Promise((r) => setTimeout(r, 150))');
    }
    const to = Number(await page.evaluate('performance.now()'));
    if (profiling) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
      writeFileSync(profiling, JSON.stringify(profile));
    }
    const tasks = (await page.evaluate('window.__longTasks')) as { start: number; duration: number }[];
    const during = tasks.filter((t) => t.start >= from && t.start <= to);
    longestTaskMs = Math.max(0, ...during.map((t) => t.duration));
    tasksOver100 = during.filter((t) => t.duration > 100).length;
    const frames = (
      (await page.evaluate('window.__longFrames')) as {
        start: number;
        duration: number;
        render: number;
        scripts: string[];
      }[]
    ).filter((f) => f.start >= from && f.start <= to);
    longestFrameMs = Math.max(0, ...frames.map((f) => f.duration));
    if (process.env.WEBBRIDGE_BENCH_FRAMES)
      for (const f of frames.sort((a, b) => b.duration - a.duration).slice(0, 8))
        console.log(
          `frame ${Math.round(f.duration)} ms (render ${Math.round(f.render)} ms): ${f.scripts.join('; ')}`,
        );
    keys = (await page.evaluate('window.__keys')) as number[];
    if (process.env.WEBBRIDGE_BENCH_FRAMES) console.log(`keys (ms): ${keys.map(Math.round).join(' ')}`);
    await host.controller.executor.run(() => host.controller.messages.stop());
  }
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  await context.close();
  return {
    lastVisibleMs,
    longestTaskMs,
    tasksOver100,
    longestFrameMs,
    keyP90: quantile(keys, 0.9),
    keyMax: Math.max(0, ...keys),
    heapMiB: usedSize / 2 ** 20,
    nodes: metrics.find((m) => m.name === 'Nodes')?.value ?? 0,
  };
}

async function main(): Promise<void> {
  assertWebBuilt();
  console.log(`slow phone benchmark — ${new Date().toISOString()}, Node ${process.version}, web: ${dist}`);
  const [scene, browser] = await Promise.all([startSlowPhoneScene(CODE, dist), launchBrowser()]);
  try {
    const { host, short, long } = scene;
    const { controller } = host;
    const textBytes = controller
      .readState()
      .conversations.messages.reduce((sum, m) => sum + 2 * m.text.length, 0);
    const rows: Record<string, string | number>[] = [];
    for (const rate of rates) {
      await scene.select(short);
      const small = await measure(browser, host, rate, !!process.env.WEBBRIDGE_BENCH_SMALL_STREAM);
      await scene.select(long);
      const big = await measure(browser, host, rate, true);
      const allowedMiB = 1.5 * small.heapMiB + textBytes / 2 ** 20;
      rows.push({
        CPU: `${rate}×`,
        'last message visible (ms)': Math.round(big.lastVisibleMs),
        'longest task (ms)': Math.round(big.longestTaskMs),
        'tasks > 100 ms': big.tasksOver100,
        'longest frame (ms)': Math.round(big.longestFrameMs),
        'key→paint p90 (ms)': Math.round(big.keyP90),
        'key→paint max (ms)': Math.round(big.keyMax),
        'heap 2,000 (MiB)': Number(big.heapMiB.toFixed(1)),
        'heap 50 (MiB)': Number(small.heapMiB.toFixed(1)),
        'allowed (MiB)': Number(allowedMiB.toFixed(1)),
        'DOM nodes 2,000 / 50': `${big.nodes} / ${small.nodes}`,
      });
    }
    printTable(
      `2,000 messages (${(textBytes / 2 ** 20).toFixed(2)} MiB of text as UTF-16), a reply streaming a word per ${WORD_MS} ms, ${KEYS} key presses 150 ms apart, 390×844`,
      rows,
    );
    console.log(
      'targets at 6×: last message ≤ 1500 ms, longest task ≤ 100 ms, key→paint p90 ≤ 50 ms and max ≤ 150 ms, heap ≤ allowed',
    );
  } finally {
    await browser.close();
    await scene.close();
  }
}

await main();
