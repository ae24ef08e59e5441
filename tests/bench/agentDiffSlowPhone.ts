/**
 * An agent's big change and long build on the calibrated slow phone (issue 27): Chromium at
 * 390×844 with its CPU throttled to the rate at which this machine scores a low-end Android's
 * BenchmarkIndex (benchmarkIndex.ts). A real host drives the scripted fake ACP agent as a child
 * process; its script (a file: the diff alone is larger than one argument may be) edits a
 * 5,000-line file (every tenth line changed: 500 changes, so the collapsed diff has ~4,000 rows
 * of which the card draws 120), asks permission with the agent's four options, and once allowed
 * runs a command in a host terminal that prints 2,000 lines, 20 at a time every 100 ms.
 * Prints, per run:
 * - the diff card: from the host holding the approval to its diff rows painted (wall clock on
 *   both sides), and the longest main-thread task meanwhile (target: none over 100 ms),
 * - scrolling the page through the card (400 px a frame): longest task and longest frame,
 * - "show more" tapped three times (200 more rows each, the card's bound): until the rows are
 *   drawn, their count, the longest task,
 * - while the terminal streams its 2,000 lines: 40 keys dispatched 150 ms apart through CDP
 *   without waiting (slowPhone.ts's method), key→paint p90 / max, the longest task and frame,
 *   and when the last line was painted after the approval,
 * - the load average before and after (the machine is shared: read noisy runs as such).
 * Run: pnpm --filter @webbridge/web build && node --import tsx tests/bench/agentDiffSlowPhone.ts
 * Options: `--rate 6` instead of the calibration, `--runs 2`, `--dist <dir>` to serve another
 * build of web/ (a copy of web/dist made before a change: before and after alternate with the
 * same command); WEBBRIDGE_BENCH_PROFILE=1 prints where each phase's main-thread time went,
 * WEBBRIDGE_BENCH_TRACE=1 what each phase's longest tasks were made of (a trace; a profiled or
 * traced run's figures are the instruments').
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost } from '@webbridge/host';
import type { CDPSession, Page } from 'playwright-core';
import { assertWebBuilt, launchBrowser, PHONE } from '../browser/browserHarness';
import { fakeAgentFileCommand } from '../support/acp/fakeAgentCommand';
import { edit, say, turn } from '../support/acp/fakeSteps';
import { act, getState, guardOf } from '../support/api';
import { BENCHMARK_INDEX, calibrateCpu, LOW_END_ANDROID_INDEX } from './benchmarkIndex';
import { type CpuProfile, type TraceEvent, topSelfTime } from './cpuProfileSummary';
import { longTaskBreakdown } from './longTaskBreakdown';
import { pressKeysWithoutWaiting } from './pressKeysWithoutWaiting';
import { WHEN_KEY_PAINTED } from './slowPhoneScene';
import { printTable, quantile } from './table';
import { startTimelineTrace } from './timelineTrace';

const CODE = 'bench-agent-diff-9r4t';
const FILE_LINES = 5000;
const TERMINAL_LINES = 2000;
const KEYS = 40;
/** Taps on "show more" (each adds 200 rows to the collapsed diff's 120). */
const SHOW_MORE_CLICKS = 3;
const KEY_EVERY_MS = 150;
const option = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const fixedRate = option('--rate') === undefined ? undefined : Number(option('--rate'));
const runs = Number(option('--runs') ?? '1');
/** WEBBRIDGE_BENCH_PROFILE=1 prints where each phase's main-thread time went (slows the page). */
const profiling = process.env.WEBBRIDGE_BENCH_PROFILE !== undefined;
/** WEBBRIDGE_BENCH_TRACE=1 prints what each phase's longest tasks were made of (slows the page). */
const tracing = process.env.WEBBRIDGE_BENCH_TRACE !== undefined;

/** Starts a trace; the returned function stops it and prints the phase's longest tasks. */
async function trace(cdp: CDPSession, name: string): Promise<() => Promise<void>> {
  const stop = await startTimelineTrace<TraceEvent>(cdp);
  return async () => {
    const events = await stop();
    console.log(`trace ${name}: longest tasks, self time inside each:`);
    for (const task of longTaskBreakdown(events, 50, 4))
      console.log(
        `  ${Math.round(task.ms)} ms: ${task.parts.map((part) => `${part.name} ${Math.round(part.ms)}`).join(', ')}`,
      );
  };
}

/** Starts a CPU profile; the returned function stops it and prints its top self time. */
async function profile(cdp: CDPSession, name: string): Promise<() => Promise<void>> {
  if (tracing) return trace(cdp, name);
  if (!profiling) return async () => undefined;
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile: taken } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    const { totalMs, top } = topSelfTime(taken);
    console.log(`profile ${name}: ${Math.round(totalMs)} ms sampled; top self time:`);
    for (const { fn, ms: spent } of top.slice(0, 12))
      console.log(`  ${spent.toFixed(1).padStart(8)} ms  ${fn}`);
  };
}
const dist = option('--dist') ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/** Page-side recorders (CDP, before the page's scripts): long tasks, long frames, painted keys. */
const RECORDERS = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  window.__longFrames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longFrames.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'long-animation-frame', buffered: true });
  window.__keys = [];
  ${WHEN_KEY_PAINTED}((ms) => window.__keys.push(ms));
  // Wall-clock time of the frame after a selector first matched (a task posted from the frame's
  // animation callback runs after its paint).
  window.__painted = {};
  window.__watch = (name, selector) => {
    const check = () => {
      if (window.__painted[name] !== undefined || !document.querySelector(selector)) return;
      window.__painted[name] = 0;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { window.__painted[name] = performance.timeOrigin + performance.now(); };
        channel.port2.postMessage(0);
      });
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
    check();
  };
})()`;

/** A TypeScript-looking file of `lines` lines, and the same with every tenth line changed. */
function bigFile(lines: number): { oldText: string; newText: string } {
  const before: string[] = [];
  const after: string[] = [];
  for (let i = 0; i < lines; i++) {
    const line = `  const value${i} = compute(${i}, 'entry ${i}', options.scale * ${i % 97});`;
    before.push(line);
    after.push(i % 10 === 5 ? line.replace('options.scale', 'options.factor') : line);
  }
  return { oldText: `${before.join('\n')}\n`, newText: `${after.join('\n')}\n` };
}

/** A shell loop printing `lines` build-like lines, 20 every 100 ms. */
function buildCommand(lines: number): string[] {
  return [
    '-c',
    `i=0; while [ $i -lt ${lines} ]; do i=$((i+1)); echo "[$i/${lines}] compiled src/module_$i.ts in $((i % 37 + 3)) ms"; if [ $((i % 20)) -eq 0 ]; then sleep 0.1; fi; done`,
  ];
}

type Tasks = { start: number; duration: number }[];
const ms = (n: number) => Math.round(n);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** Longest long task and long frame (page ms) between two page times. */
async function longest(page: Page, from: number, to: number): Promise<{ task: number; frame: number }> {
  const within = (list: Tasks) => list.filter((t) => t.start >= from && t.start <= to).map((t) => t.duration);
  const tasks = (await page.evaluate('window.__longTasks')) as Tasks;
  const frames = (await page.evaluate('window.__longFrames')) as Tasks;
  return { task: Math.max(0, ...within(tasks)), frame: Math.max(0, ...within(frames)) };
}

const pageNow = async (page: Page) => Number(await page.evaluate('performance.now()'));
const painted = async (page: Page, name: string): Promise<number> => {
  // A function, not a string: the page's CSP forbids evaluating strings (waitForFunction polls
  // inside the page).
  const handle = await page.waitForFunction(
    (wanted: string) =>
      (globalThis as unknown as { __painted: Record<string, number> }).__painted[wanted] || false,
    name,
    { timeout: 180_000, polling: 50 },
  );
  return Number(await handle.jsonValue());
};

async function oneRun(rate: number): Promise<Record<string, string | number>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-agent-diff-'));
  mkdirSync(join(dataDir, 'workspace', 'src'), { recursive: true });
  const workspace = realpathSync(join(dataDir, 'workspace'));
  const target = join(workspace, 'src', 'values.ts');
  const { oldText, newText } = bigFile(FILE_LINES);
  writeFileSync(target, oldText);
  const command = fakeAgentFileCommand(join(dataDir, 'agent-script.json'), {
    turns: [
      turn(say('Ready.')),
      turn(
        say('Renaming the scale option in src/values.ts, then building.'),
        ...edit({ path: target, oldText, newText, toolCallId: 'edit-values' }),
        { type: 'terminal', command: 'sh', args: buildCommand(TERMINAL_LINES), toolCallId: 'build' },
        say('Built.'),
      ),
    ],
  });
  const host = await startHost({
    dataDir,
    staticDir: dist,
    accessCode: CODE,
    logLevel: 'silent',
    tuning: { authThrottle: { freeFailures: 1000 } },
    agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
  });
  const h = {
    url: `http://127.0.0.1:${host.address.port}`,
    auth: () => ({ authorization: `Bearer ${CODE}`, 'content-type': 'application/json' }),
  };
  const browser = await launchBrowser();
  try {
    await act(h, { action: 'newConversation', agentId: 'fake' });
    // A first turn starts the agent's process: the measured turn does not wait for it.
    await act(h, { action: 'send', text: 'hello', ...guardOf(await getState(h)) });
    await waitUntilIdle(h);

    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    await page.addInitScript(RECORDERS);
    await page.goto(`${h.url}/#code=${CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 60_000 });
    await page.evaluate(`window.__watch('card', '.message .approval .diff-lines .diff-line')`);

    // The diff card: from the host holding the approval to its rows painted.
    const stopCard = await profile(cdp, 'diff card');
    const fromCard = await pageNow(page);
    const asked = Date.now();
    await act(h, { action: 'send', text: 'rename scale to factor', ...guardOf(await getState(h)) });
    let approvalAt = 0;
    for (;;) {
      const s = await getState(h);
      if (s.approvals.length > 0) {
        approvalAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const cardAt = await painted(page, 'card');
    const card = await longest(page, fromCard, await pageNow(page));
    await stopCard();

    // Scrolling the page through the card, 400 px a frame, top to bottom.
    const fromScroll = await pageNow(page);
    await page.evaluate(`(async () => {
      const card = document.querySelector('.message .approval');
      card.scrollIntoView({ block: 'start' });
      const list = document.querySelector('.messages');
      for (let i = 0; i < 30; i++) {
        list.scrollBy(0, i < 15 ? 400 : -400);
        await new Promise((r) => requestAnimationFrame(() => r()));
      }
    })()`);
    const scroll = await longest(page, fromScroll, await pageNow(page));

    // "Show more", three times: 200 more rows each, drawn in idle slices.
    const stopMore = await profile(cdp, 'show more');
    const fromMore = await pageNow(page);
    let rows = 0;
    // The time from each tap to its last row drawn, summed (not the waits between taps).
    let expandedMs = 0;
    for (let click = 0; click < SHOW_MORE_CLICKS; click++) {
      const button = page.locator('.message .approval .diff-more');
      // An older page drew the whole file on the first tap, and had no button after it.
      if (click > 0 && (await button.count()) === 0) break;
      await page.evaluate('window.__rows = undefined');
      const tapped = await pageNow(page);
      await button.click();
      rows = Number(
        await (
          await page.waitForFunction(
            () => {
              const g = globalThis as unknown as {
                document: { querySelectorAll(s: string): { length: number } };
                performance: { now(): number };
                __rows?: { n: number; since: number };
              };
              const n = g.document.querySelectorAll('.message .approval .diff-line').length;
              const w = g.__rows ?? { n: -1, since: g.performance.now() };
              g.__rows = w;
              if (n !== w.n) {
                w.n = n;
                w.since = g.performance.now();
                return false;
              }
              return g.performance.now() - w.since > 1500 ? n : false;
            },
            undefined,
            // Seldom: counting thousands of rows is work on the page being measured.
            { timeout: 180_000, polling: 500 },
          )
        ).jsonValue(),
      );
      expandedMs += Number(await page.evaluate('window.__rows.since')) - tapped;
    }
    const more = await longest(page, fromMore, await pageNow(page));
    await stopMore();

    // Allowed; the build streams its 2,000 lines while keys are pressed in the composer.
    await page.evaluate(
      `window.__watch('last line', '.agent-tool.agent-tool-completed[data-tool-call-id="build"]')`,
    );
    const allowedAt = Date.now();
    await page.locator('.message .approval').getByRole('button', { name: 'Allow once' }).click();
    await page.locator('.agent-tool[data-tool-call-id="build"] .agent-terminal').waitFor({ timeout: 60_000 });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await page.evaluate('window.__keys.length = 0');
    const stopKeys = await profile(cdp, 'terminal streaming');
    const fromKeys = await pageNow(page);
    await pressKeysWithoutWaiting(cdp, KEYS, KEY_EVERY_MS);
    await page
      .waitForFunction(
        (n: number) => (globalThis as unknown as { __keys: number[] }).__keys.length >= n,
        KEYS,
        {
          timeout: 30_000,
          polling: 100,
        },
      )
      .catch(() => undefined);
    const streamingWhileKeys = await longest(page, fromKeys, await pageNow(page));
    await stopKeys();
    const keys = (await page.evaluate('window.__keys')) as number[];
    const lastLineAt = await painted(page, 'last line');
    const terminal = await longest(page, fromKeys, await pageNow(page));
    const shownLines = Number(
      await page.evaluate(
        `(document.querySelector('.agent-tool[data-tool-call-id="build"] .agent-terminal')?.textContent ?? '').trimEnd().split('\\n').length`,
      ),
    );
    await context.close();
    return {
      CPU: `${rate}×`,
      'approval → diff painted (ms)': ms(cardAt - approvalAt),
      'send → diff painted (ms)': ms(cardAt - asked),
      'longest task card (ms)': ms(card.task),
      'scroll: task / frame (ms)': `${ms(scroll.task)} / ${ms(scroll.frame)}`,
      'show more (≤3 taps): rows, ms': `${rows}, ${ms(expandedMs)}`,
      'show more: task / frame (ms)': `${ms(more.task)} / ${ms(more.frame)}`,
      'terminal: lines drawn, allow → done (ms)': `${shownLines}, ${ms(lastLineAt - allowedAt)}`,
      'streaming: task / frame (ms)': `${ms(Math.max(terminal.task, streamingWhileKeys.task))} / ${ms(terminal.frame)}`,
      'key→paint p90 / max (ms)': `${ms(quantile(keys, 0.9))} / ${ms(Math.max(0, ...keys))} (${keys.length}/${KEYS})`,
    };
  } finally {
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function waitUntilIdle(h: Parameters<typeof getState>[0]): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const s = await getState(h);
    if (s.conversations.run.state === 'idle' && s.conversations.messages.length > 1) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the first turn did not end');
}

async function main(): Promise<void> {
  assertWebBuilt();
  console.log(`agent diff on a slow phone — ${new Date().toISOString()}, Node ${process.version}`);
  console.log(`load average at start: ${load()} on ${cpus().length} cores`);
  let rate = fixedRate;
  let note = 'fixed rate';
  if (rate === undefined) {
    const browser = await launchBrowser();
    const page = await (await browser.newContext()).newPage();
    const cdp = await page.context().newCDPSession(page);
    const calibration = await calibrateCpu(async (r) => {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: r });
      return Number(await page.evaluate(BENCHMARK_INDEX));
    }, LOW_END_ANDROID_INDEX);
    await browser.close();
    rate = calibration.rate;
    note = `machine index ${calibration.machineIndex}, ${rate}× scored ${calibration.emulatedIndex} (target ${LOW_END_ANDROID_INDEX})`;
  }
  const rows: Record<string, string | number>[] = [];
  for (let i = 0; i < runs; i++) rows.push(await oneRun(rate));
  printTable(
    `a ${FILE_LINES.toLocaleString('en')}-line file with 500 lines changed, then ${TERMINAL_LINES.toLocaleString('en')} lines of terminal output, 390×844; ${note}; load average now ${load()}`,
    rows,
  );
  console.log('target on the calibrated phone: no main-thread task over 100 ms; key→paint max ≤ 100 ms');
}

await main();
