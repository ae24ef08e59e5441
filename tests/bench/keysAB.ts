/**
 * Two builds of the web client typing on the slow phone while a reply streams (issue 29), the
 * builds alternating run after run so that a shared machine's load falls on both alike (key to
 * paint moved by 5× between runs of one build on this machine: slowPhone.ts alone cannot tell
 * a change of a few ms per key from the noise). Per run, each build opens the long agent
 * conversation (2,000 messages, slowPhoneScene.ts) in a new profile at a fixed CPU rate, a
 * reply streams a word per 30 ms and 40 keys are dispatched 150 ms apart without waiting
 * (pressKeysWithoutWaiting.ts). Prints per build the medians over the runs of:
 * - key to character painted, p90 and max (from the keydown's timeStamp, as slowPhone.ts), and
 *   p90 from the key's `input` event to its frame painted (the frame carrying the key, without
 *   the wait for the main thread before it),
 * - the main thread's time per key in the tasks that carry it (keydown, the text's insertion,
 *   `input` and what its handlers run: a CDP trace, devtools.timeline only), and of that the
 *   `input` event's handlers,
 * - the main thread's time per frame painted while typing, and the share of the window the
 *   main thread was busy (the queue every key waits in),
 * and the same per key and per frame in the main thread's CPU time (the trace's thread clock:
 * without another process's turn on a shared machine, but with the throttle, which Chromium
 * spends on the thread itself: at 6× a key's task took ~25 ms of thread time for ~29 ms of wall
 * time; it still moved by 1.5× between runs of one build at load 7), with the load average at
 * each run's start.
 *
 * `node --import tsx bench/keysAB.ts --a <dist> --b <dist>` (from tests/; default b: the built
 * web/dist), `--runs 4`, `--rate 6`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession } from 'playwright-core';
import { abOptions } from './abOptions';
import { keysPainted, pressKeysWithoutWaiting } from './pressKeysWithoutWaiting';
import {
  launchPhone,
  type SlowPhoneScene,
  startSlowPhoneScene,
  streamedReply,
  WHEN_KEY_PAINTED,
} from './slowPhoneScene';
import { printTable, quantile } from './table';
import { startTimelineTrace } from './timelineTrace';

const CODE = 'bench-keys-ab-5t8c';
const KEYS = 40;
const KEY_EVERY_MS = 150;
const { builds, runs, rate } = abOptions(4);

/** A complete trace event (the fields read here). */
interface Slice {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  /** Thread time (µs): the CPU the slice used (the throttle's share included), without another process's turn. */
  readonly tdur?: number;
  readonly args?: { readonly name?: string; readonly data?: { readonly type?: string } };
}

/** What one run of typing cost. */
interface Typing {
  readonly load: number;
  readonly keyP90: number;
  readonly keyMax: number;
  readonly inputToPaintP90: number;
  readonly keyTaskMs: number;
  readonly inputHandlerMs: number;
  readonly frameMs: number;
  readonly frames: number;
  readonly busy: number;
  /** The same in the main thread's CPU time (the trace's thread clock). */
  readonly keyCpuMs: number;
  readonly frameCpuMs: number;
  /** Of a frame's CPU: painting it (pre-paint, paint, layerize, commit). */
  readonly framePaintCpuMs: number;
}

const RECORDER = `(() => {
  window.__keys = [];
  ${WHEN_KEY_PAINTED}((ms) => window.__keys.push(ms));
  // From the key's input event to its frame painted: the frame that carries the key, without
  // the time the key waited for the main thread before it.
  window.__fromInput = [];
  addEventListener('input', () => {
    const from = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => window.__fromInput.push(performance.now() - from);
      channel.port2.postMessage(0);
    });
  }, true);
})()`;

/** Starts a light trace (devtools.timeline); the returned function stops it and hands its events. */
function trace(cdp: CDPSession): Promise<() => Promise<Slice[]>> {
  return startTimelineTrace<Slice>(cdp);
}

/** The page's main thread's tasks, each with the slices inside it. */
function mainThreadTasks(events: Slice[]): { task: Slice; inside: Slice[] }[] {
  const dispatches = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  const thread = dispatches[0];
  if (!thread) return [];
  const slices = events
    .filter((e) => e.pid === thread.pid && e.tid === thread.tid && e.ph === 'X')
    .sort((x, y) => x.ts - y.ts);
  const tasks: { task: Slice; inside: Slice[] }[] = [];
  for (const e of slices) {
    const last = tasks.at(-1);
    if (last && e.ts < last.task.ts + (last.task.dur ?? 0)) last.inside.push(e);
    else if (e.name === 'RunTask') tasks.push({ task: e, inside: [] });
  }
  return tasks;
}

/** Opens the long conversation in a new profile, streams a reply and types; what it cost. */
async function typeWhileStreaming(scene: SlowPhoneScene): Promise<Typing> {
  const load = loadavg()[0] ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'webbridge-keys-ab-'));
  const context = await launchPhone(dir);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await page.addInitScript(RECORDER);
    await page.goto(`${scene.host.url}/#code=${CODE}`);
    await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout: 120_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(`>${streamedReply(400)}`);
    await box.press('Enter');
    await page.locator('.message-assistant.status-streaming .body').waitFor({ timeout: 60_000 });
    await box.focus();
    await page.evaluate('window.__keys.length = 0; window.__fromInput.length = 0');
    const stop = await trace(cdp);
    await pressKeysWithoutWaiting(cdp, KEYS, KEY_EVERY_MS);
    await keysPainted(page, KEYS);
    const events = await stop();
    const keys = (await page.evaluate('window.__keys')) as number[];
    const fromInput = (await page.evaluate('window.__fromInput')) as number[];
    await scene.host.controller.executor.run(() => scene.host.controller.messages.stop());
    const tasks = mainThreadTasks(events);
    const isKey = (t: { inside: Slice[] }) =>
      t.inside.some((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
    const isFrame = (t: { inside: Slice[] }) =>
      t.inside.some((e) => e.name === 'Paint' || e.name === 'Commit');
    const ms = (e: Slice) => (e.dur ?? 0) / 1000;
    const cpu = (e: Slice) => (e.tdur ?? 0) / 1000;
    const painting = new Set(['PrePaint', 'Paint', 'Layerize', 'Commit']);
    const keyTasks = tasks.filter(isKey);
    const frameTasks = tasks.filter((t) => !isKey(t) && isFrame(t));
    const first = tasks[0]?.task.ts ?? 0;
    const last = tasks.at(-1);
    const windowMs = last ? (last.task.ts + (last.task.dur ?? 0) - first) / 1000 : 1;
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    return {
      load,
      keyP90: quantile(keys, 0.9),
      keyMax: Math.max(...keys),
      inputToPaintP90: quantile(fromInput, 0.9),
      keyTaskMs: sum(keyTasks.map((t) => ms(t.task))) / KEYS,
      inputHandlerMs:
        sum(
          keyTasks.flatMap((t) =>
            t.inside.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input').map(ms),
          ),
        ) / KEYS,
      frameMs: sum(frameTasks.map((t) => ms(t.task))) / Math.max(1, frameTasks.length),
      frames: frameTasks.length,
      busy: sum(tasks.map((t) => ms(t.task))) / windowMs,
      keyCpuMs: sum(keyTasks.map((t) => cpu(t.task))) / KEYS,
      frameCpuMs: sum(frameTasks.map((t) => cpu(t.task))) / Math.max(1, frameTasks.length),
      framePaintCpuMs:
        sum(frameTasks.flatMap((t) => t.inside.filter((e) => painting.has(e.name)).map(cpu))) /
        Math.max(1, frameTasks.length),
    };
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!builds.a) throw new Error('--a <dist> (the build to compare with web/dist) is required');
  console.log(
    `keys A/B — ${new Date().toISOString()}, ${rate}× CPU, ${runs} runs each, alternating; load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} on ${cpus().length} cores\n  a: ${builds.a}\n  b: ${builds.b}`,
  );
  const scenes: Record<'a' | 'b', SlowPhoneScene> = {
    a: await startSlowPhoneScene(CODE, builds.a),
    b: await startSlowPhoneScene(CODE, builds.b),
  };
  const figures: Record<'a' | 'b', Typing[]> = { a: [], b: [] };
  try {
    for (const k of ['a', 'b'] as const) await scenes[k].select(scenes[k].long);
    for (let run = 0; run < runs; run++) {
      // a then b on even runs, b then a on odd ones: neither always goes first.
      for (const k of run % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
        const typed = await typeWhileStreaming(scenes[k]);
        figures[k].push(typed);
        console.log(
          `run ${run + 1} ${k}: load ${typed.load.toFixed(2)}, key→paint p90 ${Math.round(typed.keyP90)} max ${Math.round(typed.keyMax)} ms, input→paint p90 ${Math.round(typed.inputToPaintP90)} ms, per key ${typed.keyTaskMs.toFixed(1)} ms (input handlers ${typed.inputHandlerMs.toFixed(1)}), per frame ${typed.frameMs.toFixed(1)} ms × ${typed.frames}, busy ${Math.round(100 * typed.busy)}%; CPU per key ${typed.keyCpuMs.toFixed(2)} ms, per frame ${typed.frameCpuMs.toFixed(2)} (painting ${typed.framePaintCpuMs.toFixed(2)})`,
        );
      }
    }
  } finally {
    for (const k of ['a', 'b'] as const) await scenes[k].close();
  }
  const median = (xs: number[]) => quantile(xs, 0.5);
  printTable(
    `\nmedians of ${runs} runs each at ${rate}×, 40 keys while a reply streams; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
    (['a', 'b'] as const).map((k) => {
      const f = figures[k];
      return {
        build: k,
        'key→paint p90 / max (ms)': `${Math.round(median(f.map((x) => x.keyP90)))} / ${Math.round(median(f.map((x) => x.keyMax)))}`,
        'input→paint p90 (ms)': Math.round(median(f.map((x) => x.inputToPaintP90))),
        'main thread per key (ms)': median(f.map((x) => x.keyTaskMs)).toFixed(1),
        'of which input handlers (ms)': median(f.map((x) => x.inputHandlerMs)).toFixed(1),
        'per frame (ms)': median(f.map((x) => x.frameMs)).toFixed(1),
        frames: Math.round(median(f.map((x) => x.frames))),
        'main thread busy': `${Math.round(100 * median(f.map((x) => x.busy)))}%`,
        'CPU per key (ms)': median(f.map((x) => x.keyCpuMs)).toFixed(2),
        'CPU per frame, of which painting (ms)': `${median(f.map((x) => x.frameCpuMs)).toFixed(2)}, ${median(f.map((x) => x.framePaintCpuMs)).toFixed(2)}`,
      };
    }),
  );
}

await main();
