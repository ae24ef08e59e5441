/**
 * Two builds of the web client side by side on the slow phone: the long agent conversation
 * (2,000 messages, slowPhoneScene.ts) opened cold and warm, the builds alternating run after
 * run, so that a shared machine's load falls on both alike (slowPhone.ts runs one build at a
 * time, minutes apart, and its figures moved by 2× between runs of one build on a loaded
 * machine). Each opening is measured to the last message visible, with the main thread's task
 * and layout time up to then (CDP Performance.getMetrics), and its longest task.
 *
 * `node --import tsx bench/slowPhoneAB.ts --a <dist> --b <dist>` (from tests/; default b: the
 * built web/dist), `--runs 6`, `--rate 6` (a fixed CPU throttling rate: no calibration).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { abOptions } from './abOptions';
import { launchPhone, type SlowPhoneScene, startSlowPhoneScene } from './slowPhoneScene';
import { printTable, quantile } from './table';

const CODE = 'bench-slow-phone-ab-9q2m';
const { builds, runs, rate } = abOptions(6);

/** What one opening cost, to the last message visible. */
interface Opening {
  readonly visibleMs: number;
  readonly taskMs: number;
  readonly layoutMs: number;
  readonly scriptMs: number;
  readonly longestTaskMs: number;
}

const RECORDER = `(() => {
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
})()`;

/** Opens `url` in the profile `dir` at `throttle`×, until the message `lastId` is on screen. */
async function open(dir: string, url: string, throttle: number, lastId: string): Promise<Opening> {
  const context = await launchPhone(dir);
  try {
    const page: Page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    await cdp.send('Performance.enable');
    await page.addInitScript(RECORDER);
    await page.goto(url);
    const visible = await page.waitForFunction(
      (wanted: string) => {
        const g = globalThis as unknown as {
          document: {
            querySelector(s: string): { getBoundingClientRect(): { top: number; bottom: number } } | null;
          };
          innerHeight: number;
          performance: { now(): number };
        };
        const box = g.document.querySelector(`[data-message-id="${wanted}"]`)?.getBoundingClientRect();
        return box && box.bottom > 0 && box.top < g.innerHeight ? g.performance.now() : false;
      },
      lastId,
      { polling: 'raf', timeout: 120_000 },
    );
    const visibleMs = Number(await visible.jsonValue());
    const { metrics } = (await cdp.send('Performance.getMetrics')) as {
      metrics: { name: string; value: number }[];
    };
    const metric = (name: string) => 1000 * (metrics.find((m) => m.name === name)?.value ?? 0);
    await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout: 120_000 });
    return {
      visibleMs,
      taskMs: metric('TaskDuration'),
      layoutMs: metric('LayoutDuration'),
      scriptMs: metric('ScriptDuration'),
      longestTaskMs: Number(await page.evaluate('window.__longest')),
    };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  if (!builds.a) throw new Error('--a <dist> (the build to compare with web/dist) is required');
  console.log(
    `slow phone A/B — ${new Date().toISOString()}, ${rate}× CPU, ${runs} runs each, alternating; load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} on ${cpus().length} cores\n  a: ${builds.a}\n  b: ${builds.b}`,
  );
  const scenes: Record<'a' | 'b', SlowPhoneScene> = {
    a: await startSlowPhoneScene(CODE, builds.a),
    b: await startSlowPhoneScene(CODE, builds.b),
  };
  const warmDirs = {
    a: mkdtempSync(join(tmpdir(), 'webbridge-ab-a-')),
    b: mkdtempSync(join(tmpdir(), 'webbridge-ab-b-')),
  };
  const lastId = (k: 'a' | 'b') =>
    scenes[k].host.controller.readState().conversations.messages.at(-1)?.id ?? '';
  const figures: Record<'a' | 'b', { cold: Opening[]; warm: Opening[] }> = {
    a: { cold: [], warm: [] },
    b: { cold: [], warm: [] },
  };
  try {
    for (const k of ['a', 'b'] as const) {
      await scenes[k].select(scenes[k].long);
      // Paired, then two more visits: the service worker's precache, the HTTP cache and V8's
      // code cache warm, as in slowPhone.ts.
      await open(warmDirs[k], `${scenes[k].host.url}/#code=${CODE}`, 1, lastId(k));
      for (let i = 0; i < 2; i++) await open(warmDirs[k], `${scenes[k].host.url}/`, 1, lastId(k));
    }
    for (let run = 0; run < runs; run++) {
      // a then b on even runs, b then a on odd ones: neither always goes first.
      for (const k of run % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
        const coldDir = mkdtempSync(join(tmpdir(), `webbridge-ab-cold-${k}-`));
        try {
          figures[k].cold.push(await open(coldDir, `${scenes[k].host.url}/#code=${CODE}`, rate, lastId(k)));
        } finally {
          rmSync(coldDir, { recursive: true, force: true });
        }
        figures[k].warm.push(await open(warmDirs[k], `${scenes[k].host.url}/`, rate, lastId(k)));
      }
      process.stdout.write('.');
    }
  } finally {
    for (const k of ['a', 'b'] as const) {
      await scenes[k].close();
      rmSync(warmDirs[k], { recursive: true, force: true });
    }
  }
  const median = (xs: number[]) => Math.round(quantile(xs, 0.5));
  const range = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
  const rows = (['a', 'b'] as const).flatMap((k) =>
    (['cold', 'warm'] as const).map((when) => {
      const o = figures[k][when];
      return {
        build: k,
        opening: when,
        'last visible, median (range) ms': `${median(o.map((x) => x.visibleMs))} (${range(o.map((x) => x.visibleMs))})`,
        'main-thread tasks ms': median(o.map((x) => x.taskMs)),
        'script ms': median(o.map((x) => x.scriptMs)),
        'layout ms': median(o.map((x) => x.layoutMs)),
        'longest task ms': median(o.map((x) => x.longestTaskMs)),
      };
    }),
  );
  printTable(
    `\nmedians of ${runs} openings each, to the last message visible; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
    rows,
  );
}

await main();
