/**
 * A slow phone and a long chat, the same phone on every machine (issues 20 and 29): Chromium at
 * 390×844 with its CPU throttled to the rate at which this machine scores a low-end Android's
 * Lighthouse BenchmarkIndex (benchmarkIndex.ts), and at a fixed 6× for comparison with history.
 * A 2,000-message agent conversation (prose, code, tables, tool calls and their results:
 * agentConversation.ts) is opened twice per rate:
 * - cold: a new browser profile, nothing cached (first visit by the pairing link),
 * - warm: the same profile reopened after a visit, the installed app as a person reopens it (its
 *   service worker's precache, the HTTP cache and V8's code cache warm; the kept device, no link),
 * and, on the cold page, a reply streams one word per 30 ms while 40 keys are dispatched 150 ms
 * apart through CDP `Input.dispatchKeyEvent`, never waiting for the page to take one (a person
 * does not wait for the main thread). Prints, per rate:
 * - the machine's index, the rate and the index measured at that rate,
 * - navigation to the last message visible, cold and warm (targets on the calibrated phone
 *   ≤ 2,500 and ≤ 1,000 ms), and the longest task while opening,
 * - the longest main-thread task while the reply streams (target: none over 50 ms),
 * - key to character painted, p90 and max (targets ≤ 50 and ≤ 100 ms): from the keydown's
 *   `timeStamp` (the CDP event carries the time it was sent, so a key waiting behind a long
 *   task is timed from when it was pressed) and, as a check, from when this process sent it,
 * - the page's JavaScript heap and DOM nodes after a GC, against a 50-message conversation
 *   (allowance: 1.5× the small one's heap plus the long one's text as UTF-16).
 *
 * A real host runs in this process (scripted models, SQLite in a temporary folder); Debian's
 * Chromium loads the built page from it over loopback.
 * Run: pnpm --filter @webbridge/web build && node --import tsx tests/bench/slowPhone.ts
 * Options: `--rates calibrated,6,1` (the default is `calibrated,6`), `--index 100` (the target
 * index), WEBBRIDGE_BENCH_WEB_DIST=<dist> measures another build, WEBBRIDGE_BENCH_PROFILE=<dir>
 * writes a CPU profile and a trace of the first rate's cold and warm openings and its streaming
 * window into <dir> and prints what they hold (profiling slows the page: read those runs'
 * figures as the profile's, not the table's).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { RunningHost } from '@webbridge/host';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { assertWebBuilt, launchBrowser } from '../browser/browserHarness';
import { BENCHMARK_INDEX, type Calibration, calibrateCpu, LOW_END_ANDROID_INDEX } from './benchmarkIndex';
import { type CpuProfile, mainThreadWork, type TraceEvent, topSelfTime } from './cpuProfileSummary';
import { keysPainted, pressKeysWithoutWaiting } from './pressKeysWithoutWaiting';
import { launchPhone, startSlowPhoneScene, streamedReply, WHEN_KEY_PAINTED, WORD_MS } from './slowPhoneScene';
import { printTable, quantile } from './table';
import { startTimelineTrace } from './timelineTrace';

const CODE = 'bench-slow-phone-4k7w';
const KEYS = 40;
const KEY_EVERY_MS = 150;
type Rate = 'calibrated' | number;
const option = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const rates: Rate[] = (option('--rates') ?? 'calibrated,6').split(',').map((r) => {
  if (r === 'calibrated' || r === 'cal') return 'calibrated';
  const n = Number(r);
  if (!(n >= 1)) throw new Error(`--rates takes "calibrated" and numbers ≥ 1, not "${r}"`);
  return n;
});
const targetIndex = Number(option('--index') ?? LOW_END_ANDROID_INDEX);
const profileDir = process.env.WEBBRIDGE_BENCH_PROFILE;
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
        render: e.duration - (e.renderStart ? e.renderStart - e.startTime : e.duration),
        scripts: e.scripts.map((s) => \`\${Math.round(s.duration)}ms \${s.invoker} \${s.sourceFunctionName}@\${s.sourceURL.split('/').pop()}:\${s.sourceCharPosition}\`),
      });
  }).observe({ type: 'long-animation-frame', buffered: true });
  window.__keys = [];
  ${WHEN_KEY_PAINTED}((ms) => window.__keys.push({ fromKeydown: ms, paintedAt: performance.timeOrigin + performance.now() }));
})()`;

/** When the message `id` is inside the viewport (ms since navigation started, in the page). */
async function whenVisible(page: Page, id: string): Promise<number> {
  const handle = await page
    .waitForFunction(
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
    )
    .catch(async (error: unknown) => {
      const seen = await page
        .evaluate(`(() => {
          const list = document.querySelector('.messages');
          const last = document.querySelector('[data-message-id="${id}"]');
          const ids = [...document.querySelectorAll('[data-message-id]')].map((e) => e.getAttribute('data-message-id'));
          return JSON.stringify({ scrollTop: list?.scrollTop, scrollHeight: list?.scrollHeight, lastBox: last?.getBoundingClientRect(), ids });
        })()`)
        .catch(() => '?');
      throw new Error(`message ${id} never visible at ${page.url()}; the page shows: ${String(seen)}`, {
        cause: error,
      });
    });
  return Number(await handle.jsonValue());
}

/** Starts a CPU profile and a trace on `cdp`; the returned function stops both and writes them. */
async function startProfiling(cdp: CDPSession, name: string): Promise<() => Promise<void>> {
  const stopTrace = await startTimelineTrace<TraceEvent>(cdp, [
    'v8',
    'v8.execute',
    'disabled-by-default-v8.compile',
  ]);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    const events = await stopTrace();
    if (!profileDir) return;
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
    writeFileSync(join(profileDir, `${name}.trace.json`), JSON.stringify({ traceEvents: events }));
    const { totalMs, top } = topSelfTime(profile);
    console.log(`\nprofile ${name}: ${Math.round(totalMs)} ms sampled; top self time:`);
    for (const { fn, ms } of top) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${fn}`);
    const work = Object.entries(mainThreadWork(events)).sort((a, b) => b[1] - a[1]);
    console.log(
      `trace ${name}, main thread (inclusive): ${work.map(([k, ms]) => `${k} ${Math.round(ms)} ms`).join(', ')}`,
    );
  };
}

interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly lastVisibleMs: number;
  readonly longestOpeningTaskMs: number;
  /** Resources the opening fetched, and how many came through the service worker. */
  readonly resources: { total: number; viaWorker: number; fromNetwork: number };
}

/**
 * Opens `url` in the profile `dir` with the CPU throttled `rate`×, until the message `lastId`
 * is visible and the list is no longer busy.
 */
async function open(
  dir: string,
  url: string,
  rate: number,
  lastId: string,
  profileAs?: string,
): Promise<Opened> {
  const context = await launchPhone(dir);
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await cdp.send('Performance.enable');
  await page.addInitScript(RECORDERS);
  const stop = profileAs ? await startProfiling(cdp, profileAs) : undefined;
  await page.goto(url);
  const lastVisibleMs = await whenVisible(page, lastId);
  await stop?.();
  await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout: 120_000 });
  const tasks = (await page.evaluate('window.__longTasks')) as { start: number; duration: number }[];
  const longestOpeningTaskMs = Math.max(
    0,
    ...tasks.filter((t) => t.start <= lastVisibleMs).map((t) => t.duration),
  );
  const resources = (await page.evaluate(`(() => {
    const all = performance.getEntriesByType('resource').filter((e) => !e.name.includes('/api/'));
    return { total: all.length, viaWorker: all.filter((e) => e.workerStart > 0).length, fromNetwork: all.filter((e) => e.transferSize > 0).length };
  })()`)) as Opened['resources'];
  return { context, page, cdp, lastVisibleMs, longestOpeningTaskMs, resources };
}

interface Streamed {
  readonly longestTaskMs: number;
  readonly tasksOver50: number;
  readonly longestFrameMs: number;
  readonly keyPage: number[];
  readonly keyDriver: number[];
}

/** Streams a reply into the open page while keys are dispatched; the figures of that window. */
async function streamWhileTyping(host: RunningHost, opened: Opened, profileAs?: string): Promise<Streamed> {
  const { page, cdp } = opened;
  await page.evaluate('new Promise((r) => setTimeout(r, 1000))');
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(`>${streamedReply(400)}`);
  await box.press('Enter');
  await page.locator('.message-assistant.status-streaming .body').waitFor({ timeout: 60_000 });
  await box.focus();
  await page.evaluate('window.__keys.length = 0');
  const stop = profileAs ? await startProfiling(cdp, profileAs) : undefined;
  const from = Number(await page.evaluate('performance.now()'));
  const sentAt = await pressKeysWithoutWaiting(cdp, KEYS, KEY_EVERY_MS);
  // Until the last key painted (or 30 s; a missing key is reported): its frame belongs to the
  // window, and a key still waiting must not drop out of the figure.
  await keysPainted(page, KEYS);
  const to = Number(await page.evaluate('performance.now()'));
  await stop?.();
  const tasks = (await page.evaluate('window.__longTasks')) as { start: number; duration: number }[];
  const during = tasks.filter((t) => t.start >= from && t.start <= to);
  const frames = (
    (await page.evaluate('window.__longFrames')) as {
      start: number;
      duration: number;
      render: number;
      scripts: string[];
    }[]
  ).filter((f) => f.start >= from && f.start <= to);
  if (process.env.WEBBRIDGE_BENCH_FRAMES)
    for (const f of frames.sort((a, b) => b.duration - a.duration).slice(0, 8))
      console.log(
        `frame ${Math.round(f.duration)} ms (render ${Math.round(f.render)} ms): ${f.scripts.join('; ')}`,
      );
  const keys = (await page.evaluate('window.__keys')) as { fromKeydown: number; paintedAt: number }[];
  if (keys.length !== KEYS) console.log(`${keys.length} keys painted of ${KEYS} sent`);
  if (process.env.WEBBRIDGE_BENCH_FRAMES)
    console.log(`keys (ms from keydown): ${keys.map((k) => Math.round(k.fromKeydown)).join(' ')}`);
  await host.controller.executor.run(() => host.controller.messages.stop());
  return {
    longestTaskMs: Math.max(0, ...during.map((t) => t.duration)),
    tasksOver50: during.filter((t) => t.duration > 50).length,
    longestFrameMs: Math.max(0, ...frames.map((f) => f.duration)),
    keyPage: keys.map((k) => k.fromKeydown),
    keyDriver: keys.map((k, i) => k.paintedAt - (sentAt[i] ?? Number.NaN)),
  };
}

/** The page's used JavaScript heap (MiB) and Chromium's DOM node count, after a GC. */
async function heapAndNodes(cdp: CDPSession): Promise<{ heapMiB: number; nodes: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  return { heapMiB: usedSize / 2 ** 20, nodes: metrics.find((m) => m.name === 'Nodes')?.value ?? 0 };
}

/** Waits until the page's service worker controls it and has stored the shell. */
async function whenShellStored(page: Page): Promise<string[]> {
  return (await page.evaluate(`navigator.serviceWorker.ready.then(async () => {
    for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) await new Promise((r) => setTimeout(r, 100));
    return caches.keys();
  })`)) as string[];
}

/** The page's BenchmarkIndex at `rate`× (a blank page of a fresh context of `browser`). */
async function indexMeter(): Promise<{ at(rate: number): Promise<number>; close(): Promise<void> }> {
  const browser = await launchBrowser();
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  return {
    async at(rate) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      return Number(await page.evaluate(BENCHMARK_INDEX));
    },
    close: () => browser.close(),
  };
}

/**
 * The entry script's size and that of the scripts it imports (index.html preloads them), raw
 * and gzipped: what a cold opening downloads, parses and runs before its first paint.
 */
function entryScript(): string {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const src = /<script[^>]+src="(?:\.?\/)?([^"]+)"/.exec(html)?.[1];
  if (!src) return 'entry script not found in index.html';
  const kib = (files: readonly string[]) => {
    const bytes = files.map((file) => readFileSync(join(dist, file)));
    const raw = bytes.reduce((sum, b) => sum + b.length, 0);
    const gzipped = bytes.reduce((sum, b) => sum + gzipSync(b).length, 0);
    return `${(raw / 1024).toFixed(0)} KiB (${(gzipped / 1024).toFixed(0)} KiB gzipped)`;
  };
  const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]+href="(?:\.?\/)?([^"]+)"/g)].map(
    (m) => m[1] ?? '',
  );
  const css = readdirSync(join(dist, 'assets')).filter((f) => f.startsWith('index-') && f.endsWith('.css'));
  const cssKiB = css.reduce((sum, f) => sum + statSync(join(dist, 'assets', f)).size, 0) / 1024;
  return `entry script ${src}: ${kib([src])}; with the ${preloaded.length} scripts it imports: ${kib([src, ...preloaded])}; entry CSS ${cssKiB.toFixed(0)} KiB`;
}

const ms = (n: number) => Math.round(n);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function main(): Promise<void> {
  assertWebBuilt();
  console.log(`slow phone benchmark — ${new Date().toISOString()}, Node ${process.version}, web: ${dist}`);
  console.log(`load average at start: ${load()} on ${cpus().length} cores; ${entryScript()}`);
  const meter = await indexMeter();
  let calibration: Calibration;
  try {
    calibration = await calibrateCpu((rate) => meter.at(rate), targetIndex);
  } catch (error) {
    await meter.close();
    throw error;
  }
  console.log(
    `calibration: machine index ${calibration.machineIndex}, target ${targetIndex} → rate ${calibration.rate}×, emulated index ${calibration.emulatedIndex} (steps: ${calibration.steps.map((s) => `${s.index} at ${Number(s.rate.toFixed(2))}×`).join(', ')})`,
  );
  const scene = await startSlowPhoneScene(CODE, dist);
  const profiles: string[] = [];
  try {
    const { host, short, long } = scene;
    const { controller } = host;
    const textBytes = controller
      .readState()
      .conversations.messages.reduce((sum, m) => sum + 2 * m.text.length, 0);
    // Each streamed reply adds two messages: the last one is read again before each opening.
    const lastIdNow = () => controller.readState().conversations.messages.at(-1)?.id ?? '';
    const rows: Record<string, string | number>[] = [];
    for (const [n, which] of rates.entries()) {
      const rate = which === 'calibrated' ? calibration.rate : which;
      const profile = profileDir && n === 0 ? (name: string) => name : () => undefined;
      const emulated = which === 'calibrated' ? calibration.emulatedIndex : await meter.at(rate);

      await scene.select(short);
      const smallDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-phone-'));
      profiles.push(smallDir);
      const small = await open(smallDir, `${host.url}/#code=${CODE}`, rate, lastIdNow());
      const smallHeap = await heapAndNodes(small.cdp);
      await small.context.close();
      await scene.select(long);

      // Cold: a profile that has never seen the page, opened by the pairing link.
      const dir = mkdtempSync(join(tmpdir(), 'webbridge-bench-phone-'));
      profiles.push(dir);
      const cold = await open(dir, `${host.url}/#code=${CODE}`, rate, lastIdNow(), profile('cold-open'));
      const streamed = await streamWhileTyping(host, cold, profile('stream'));
      const big = await heapAndNodes(cold.cdp);
      const shell = await whenShellStored(cold.page);
      await cold.context.close();
      // Two more visits, as a person's next days: Chromium keeps V8's compiled code for a
      // script only once it has run it more than once (in a profiled run the third visit still
      // produced the cache: "Cache Module Code" 104 ms), so the measured reopening is the fourth.
      for (let visit = 0; visit < 2; visit++) {
        const again = await open(dir, `${host.url}/`, 1, lastIdNow());
        await again.context.close();
      }
      // Warm: the installed app reopened.
      const warm = await open(dir, `${host.url}/`, rate, lastIdNow(), profile('warm-open'));
      await warm.context.close();

      const allowedMiB = 1.5 * smallHeap.heapMiB + textBytes / 2 ** 20;
      rows.push({
        CPU: which === 'calibrated' ? `${rate}× (index ${targetIndex})` : `${rate}× (fixed)`,
        'emulated index': emulated,
        'cold: last visible (ms)': ms(cold.lastVisibleMs),
        'warm: last visible (ms)': ms(warm.lastVisibleMs),
        'longest task opening cold / warm (ms)': `${ms(cold.longestOpeningTaskMs)} / ${ms(warm.longestOpeningTaskMs)}`,
        'longest task streaming (ms)': ms(streamed.longestTaskMs),
        'tasks > 50 ms': streamed.tasksOver50,
        'longest frame (ms)': ms(streamed.longestFrameMs),
        'key→paint p90 / max (ms)': `${ms(quantile(streamed.keyPage, 0.9))} / ${ms(Math.max(0, ...streamed.keyPage))}`,
        'from the send p90 / max (ms)': `${ms(quantile(streamed.keyDriver, 0.9))} / ${ms(Math.max(0, ...streamed.keyDriver))}`,
        'heap 2,000 / 50 (MiB)': `${big.heapMiB.toFixed(1)} / ${smallHeap.heapMiB.toFixed(1)}`,
        'allowed (MiB)': Number(allowedMiB.toFixed(1)),
        'DOM nodes 2,000 / 50': `${big.nodes} / ${smallHeap.nodes}`,
      });
      console.log(
        `${rate}×: warm opening fetched ${warm.resources.total} files (${warm.resources.viaWorker} through the service worker, ${warm.resources.fromNetwork} from the network), cold ${cold.resources.total} (${cold.resources.fromNetwork} from the network); caches after the cold visit: ${shell.join(', ') || 'none'}`,
      );
    }
    const after = await meter.at(calibration.rate);
    printTable(
      `2,000 agent messages (${(textBytes / 2 ** 20).toFixed(2)} MiB of text as UTF-16), a reply streaming a word per ${WORD_MS} ms, ${KEYS} keys dispatched ${KEY_EVERY_MS} ms apart without waiting, 390×844; machine index ${calibration.machineIndex}, ${calibration.rate}× scored ${calibration.emulatedIndex} before the rows and ${after} after; load average now ${load()}`,
      rows,
    );
    console.log(
      'targets on the calibrated phone: warm ≤ 1000 ms, cold ≤ 2500 ms, no task over 50 ms while streaming, key→paint p90 ≤ 50 ms and max ≤ 100 ms, heap ≤ allowed',
    );
  } finally {
    await meter.close();
    await scene.close();
    for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
