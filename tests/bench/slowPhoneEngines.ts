/**
 * The slow-phone figures (issue 20) on WebKit and Firefox: what slowPhone.ts measures in
 * Chromium, as far as these engines let it be measured. The same 2,000-message agent
 * conversation (slowPhoneScene.ts), 390×844, a reply streaming one word per 30 ms while 40 keys
 * are pressed 150 ms apart (through the driver, which waits for each: neither WebDriver classic
 * nor BiDi can send a key without waiting, so the figure from the driver's send is the one a
 * person feels), one opening each (a fresh browser: cold). Prints,
 * per engine:
 * - navigation to the last message visible,
 * - key press to character painted, p90 and max, two ways: from the keydown event's timeStamp
 *   (in the page; an engine may stamp a key its driver synthesised only when dispatching it,
 *   which leaves out the wait for a busy main thread) and from the moment this process asked
 *   the driver to press it (which adds the driver's round trips: an upper bound),
 * - the longest gap between animation frames while the reply streams (a requestAnimationFrame
 *   loop: the stand-in for long tasks where the Long Tasks API is missing),
 * - the nodes in the document (elements, text, comments) with 2,000 and with 50 messages,
 * and, read from each page, why the rest cannot be measured there.
 *
 * Unlike slowPhone.ts, no CPU throttling (neither WebDriver classic, WebKit's protocol here, nor
 * WebDriver BiDi, Firefox's, has one) and no heap. The page's Content-Security-Policy refuses
 * inline scripts (the bench checks that), so the recorders come through the driver, which the
 * CSP does not govern: in Firefox as a BiDi preload script, before the page's own scripts; in
 * WebKit (WebDriver classic has no init scripts) as soon as the new document answers a script
 * (a session that does not wait for loads, polled): see OpenOptions.early. A last message
 * already on screen when the recorder arrives would be timed at its arrival: an upper bound,
 * marked "≤".
 *
 * A real host runs in this process (scripted models, SQLite in a temporary folder); Debian's
 * WebKitGTK MiniBrowser (WebKitWebDriver on a virtual display) and Firefox ESR (puppeteer-core
 * over WebDriver BiDi) load the built page from it over loopback, through tests/browser/engines.
 * Run: pnpm --filter @webbridge/web build && node --import tsx tests/bench/slowPhoneEngines.ts
 * (`--engines webkit` measures one engine.)
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningHost } from '@webbridge/host';
import { assertWebBuilt } from '../browser/browserHarness';
import type { EngineBrowser, EnginePage } from '../browser/engines/EnginePage';
import { MESSAGE_BOX, PHONE } from '../browser/engines/engineSteps';
import { launchEngineNamed } from '../browser/engines/launchEngine';
import { startSlowPhoneScene, streamedReply, WHEN_KEY_PAINTED, WORD_MS } from './slowPhoneScene';
import { preciseNow, printTable, quantile } from './table';

const CODE = 'bench-slow-engines-8p2d';
const KEYS = 40;
/** Words in the streamed reply: 18 s at 30 ms, longer than the keys take even with a slow driver. */
const REPLY_WORDS = 600;
/** The engines this bench measures (Chromium's figures are slowPhone.ts's). */
type MeasuredEngine = 'webkit' | 'firefox';
const engines: MeasuredEngine[] = (() => {
  const i = process.argv.indexOf('--engines');
  const named = i < 0 ? ['webkit', 'firefox'] : (process.argv[i + 1] ?? '').split(',');
  return named.map((name) => {
    if (name === 'webkit' || name === 'firefox') return name;
    throw new Error(`--engines takes webkit and/or firefox, not "${name}"`);
  });
})();
const dist =
  process.env.WEBBRIDGE_BENCH_WEB_DIST ??
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');

/**
 * Page-side recorders (text: the driver runs them early in the document, OpenOptions.early).
 * A requestAnimationFrame loop records every gap between two frames and, each frame until it
 * is seen, whether the message `lastId` is in the viewport; a key recorder as slowPhone.ts's:
 * keydown to the frame after its input painted.
 */
function recorders(lastId: string): string {
  return `(() => {
  if (window.__bench) return 0;
  const bench = (window.__bench = { lastVisibleAt: null, visibleAtInstall: false, gaps: [], keys: [] });
  const visible = () => {
    // A preload script runs before the document has a body.
    if (!document.body) return false;
    const el = document.querySelector('[data-message-id="' + ${JSON.stringify(lastId)} + '"]');
    if (!el) return false;
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < innerHeight;
  };
  // Already on screen when the recorder arrives (WebKit, late): timed now, an upper bound.
  if (visible()) {
    bench.visibleAtInstall = true;
    bench.lastVisibleAt = performance.now();
  }
  let previous;
  const frame = (time) => {
    if (previous !== undefined) bench.gaps.push([time, time - previous]);
    previous = time;
    if (bench.lastVisibleAt === null && visible()) bench.lastVisibleAt = performance.now();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  ${WHEN_KEY_PAINTED}((ms) =>
    bench.keys.push({ fromKeydown: ms, paintedAt: performance.timeOrigin + performance.now() }),
  );
  return 0;
})()`;
}

/** What the page offers for the figures Chromium's bench reads through CDP. */
const CAPABILITIES = `(() => {
  const types = (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes) || [];
  return {
    longtask: types.includes('longtask'),
    longAnimationFrame: types.includes('long-animation-frame'),
    performanceMemory: 'memory' in performance,
    measureMemory: typeof performance.measureUserAgentSpecificMemory === 'function',
    crossOriginIsolated: self.crossOriginIsolated === true,
  };
})()`;

interface Capabilities {
  readonly longtask: boolean;
  readonly longAnimationFrame: boolean;
  readonly performanceMemory: boolean;
  readonly measureMemory: boolean;
  readonly crossOriginIsolated: boolean;
}

/**
 * Whether an inline script the page adds itself runs (it should not: the CSP has no
 * 'unsafe-inline'), which is why the recorders come through the driver.
 */
const INLINE_SCRIPT_RUNS = `new Promise((resolve) => {
  const script = document.createElement('script');
  script.textContent = 'window.__inlineRan = true';
  document.head.append(script);
  script.remove();
  setTimeout(() => resolve(window.__inlineRan === true), 100);
})`;

/** Nodes in the document (every kind) and elements among them. */
const NODES = `(() => {
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
  let nodes = 1;
  while (walker.nextNode()) nodes++;
  return [nodes, document.getElementsByTagName('*').length];
})()`;

interface Recorded {
  readonly lastVisibleAt: number | null;
  readonly visibleAtInstall: boolean;
  readonly gaps: [number, number][];
  readonly keys: { fromKeydown: number; paintedAt: number }[];
}

interface Measured {
  readonly lastVisibleMs: number;
  readonly visibleAtInstall: boolean;
  readonly nodes: number;
  readonly elements: number;
  readonly longestGapMs?: number;
  readonly gapsOver100?: number;
  readonly frames?: number;
  readonly keyPage?: readonly number[];
  readonly keyDriver?: readonly number[];
  readonly roundTripMs?: number;
  readonly stillStreaming?: boolean;
  /** Where the page opened when its last message never showed (it was not at the end). */
  readonly notAtEnd?: string;
  readonly capabilities?: Capabilities;
  readonly inlineScriptRuns?: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls the page's recorder until it has seen the last message, for at most 30 s: in WebKit on
 * a loaded machine the page sometimes opened a conversation away from its end and stayed there
 * (then says where it is).
 */
async function lastVisible(
  page: EnginePage,
): Promise<{ at: number | null; atInstall: boolean; notAtEnd?: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [at, atInstall] = await page.evaluate<[number | null, boolean]>(
      '[window.__bench.lastVisibleAt, window.__bench.visibleAtInstall]',
    );
    if (at !== null) return { at, atInstall };
    if (Date.now() > deadline) return { at, atInstall, notAtEnd: await page.evaluate<string>(WHERE) };
    await pause(50);
  }
}

/** Where the message list is scrolled, and where its last message is, as a sentence. */
const WHERE = `(() => {
  const list = document.querySelector('.messages');
  const all = document.querySelectorAll('[data-message-id]');
  const last = all[all.length - 1];
  const top = last ? Math.round(last.getBoundingClientRect().top) : NaN;
  return list
    ? 'its last message ' + (top - innerHeight) + ' px below the viewport, scrollTop ' + Math.round(list.scrollTop) + ' of ' + list.scrollHeight + ' (client ' + list.clientHeight + ')'
    : 'no message list yet';
})()`;

/** Scrolls the message list to its end, as a person would. */
const TO_END = `(() => { const list = document.querySelector('.messages'); list.scrollTop = list.scrollHeight; return 0; })()`;

async function measure(browser: EngineBrowser, host: RunningHost, stream: boolean): Promise<Measured> {
  const lastId = host.controller.readState().conversations.messages.at(-1)?.id ?? '';
  const page = await browser.openPage(`${host.url}/#code=${CODE}`, PHONE, { early: recorders(lastId) });
  try {
    const { at: lastVisibleAt, atInstall: visibleAtInstall, notAtEnd } = await lastVisible(page);
    await page.waitFor('.message-list[aria-busy="false"]', { timeout: 120_000 });
    if (notAtEnd !== undefined) await page.evaluate(TO_END);
    await pause(1000);
    if (!stream) {
      const [nodes, elements] = await page.evaluate<[number, number]>(NODES);
      return {
        lastVisibleMs: lastVisibleAt ?? Number.NaN,
        visibleAtInstall,
        nodes,
        elements,
        ...(notAtEnd === undefined ? {} : { notAtEnd }),
      };
    }
    const capabilities = await page.evaluate<Capabilities>(CAPABILITIES);
    const inlineScriptRuns = await page.evaluate<boolean>(INLINE_SCRIPT_RUNS);
    // The driver's own cost of one call, to read the driver-side key figures against.
    const trips: number[] = [];
    for (let i = 0; i < 10; i++) {
      const start = preciseNow();
      await page.evaluate('0');
      trips.push(preciseNow() - start);
    }

    await page.fill(MESSAGE_BOX, `>${streamedReply(REPLY_WORDS)}`);
    await page.press(MESSAGE_BOX, 'Enter');
    await page.waitFor('.message-assistant.status-streaming .body', { timeout: 60_000 });
    const from = await page.evaluate<number>('performance.now()');
    const sentAt: number[] = [];
    for (let i = 0; i < KEYS; i++) {
      sentAt.push(preciseNow());
      await page.type(MESSAGE_BOX, 'a');
      await pause(150);
    }
    const to = await page.evaluate<number>('performance.now()');
    const stillStreaming = (await page.count('.message-assistant.status-streaming')) > 0;
    const recorded = await page.evaluate<Recorded>('window.__bench');
    await host.controller.executor.run(() => host.controller.messages.stop());
    const during = recorded.gaps.filter(([time]) => time >= from && time <= to).map(([, gap]) => gap);
    if (recorded.keys.length !== KEYS)
      console.log(`${browser.engine}: ${recorded.keys.length} keys painted of ${KEYS} pressed`);
    const [nodes, elements] = await page.evaluate<[number, number]>(NODES);
    return {
      lastVisibleMs: lastVisibleAt ?? Number.NaN,
      visibleAtInstall,
      nodes,
      elements,
      longestGapMs: Math.max(0, ...during),
      gapsOver100: during.filter((gap) => gap > 100).length,
      frames: during.length,
      keyPage: recorded.keys.map((key) => key.fromKeydown),
      keyDriver: recorded.keys.map((key, i) => key.paintedAt - (sentAt[i] ?? Number.NaN)),
      roundTripMs: quantile(trips, 0.5),
      stillStreaming,
      ...(notAtEnd === undefined ? {} : { notAtEnd }),
      capabilities,
      inlineScriptRuns,
    };
  } finally {
    await page.close();
  }
}

/** How the recorders reached the page before it rendered. */
function howEarly(engine: MeasuredEngine): string {
  switch (engine) {
    case 'firefox':
      return 'as a WebDriver BiDi preload script, before the page’s own scripts';
    case 'webkit':
      return 'as soon as the new document answered it (WebDriver classic has no init scripts)';
    default: {
      const unknown: never = engine;
      throw new Error(`no such engine: ${String(unknown)}`);
    }
  }
}

/** Why a figure Chromium's bench prints is missing here, from what the page itself offers. */
function missing(engine: MeasuredEngine, big: Measured): string[] {
  const c = big.capabilities;
  const lines = [
    `${engine}: no CPU throttling (its driver's protocol has none; only Chromium's DevTools protocol has Emulation.setCPUThrottlingRate): unthrottled figures only.`,
  ];
  if (!c) return lines;
  lines.push(
    c.longtask
      ? `${engine}: the Long Tasks API is there but not read here (the frame gaps are, for every engine alike).`
      : `${engine}: no Long Tasks API (PerformanceObserver.supportedEntryTypes lacks 'longtask'${c.longAnimationFrame ? '' : " and 'long-animation-frame'"}): the longest gap between animation frames stands in.`,
  );
  const heap = [
    c.performanceMemory ? 'performance.memory exists' : 'no performance.memory (Chromium only)',
    c.measureMemory
      ? `performance.measureUserAgentSpecificMemory exists but needs cross-origin isolation (COOP + COEP), which the page ${c.crossOriginIsolated ? 'has' : 'does not have (crossOriginIsolated is false)'}`
      : `no performance.measureUserAgentSpecificMemory (and it would need cross-origin isolation, COOP + COEP, which the page does not have: crossOriginIsolated is ${c.crossOriginIsolated})`,
    'and the driver exposes no heap figure',
  ];
  lines.push(`${engine}: no heap: ${heap.join('; ')}.`);
  lines.push(
    `${engine}: an inline <script> the page adds ${big.inlineScriptRuns ? 'RUNS (the CSP did not stop it)' : 'does not run (the CSP refuses it)'}; the recorders came through the driver, ${howEarly(engine)}.`,
  );
  if (big.notAtEnd !== undefined)
    lines.push(
      `${engine}: the 2,000-message page opened away from its end and stayed there (${big.notAtEnd}); scrolled to the end before the reply.`,
    );
  if (big.stillStreaming === false)
    lines.push(`${engine}: the reply had finished before the last key: the window is partly idle.`);
  return lines;
}

async function main(): Promise<void> {
  assertWebBuilt();
  console.log(
    `slow phone on other engines — ${new Date().toISOString()}, Node ${process.version}, web: ${dist}`,
  );
  const scene = await startSlowPhoneScene(CODE, dist);
  try {
    const { host, short, long } = scene;
    const rows: Record<string, string | number>[] = [];
    const notes: string[] = [];
    for (const engine of engines) {
      const browser = await launchEngineNamed(engine);
      try {
        await scene.select(short);
        const small = await measure(browser, host, false);
        await scene.select(long);
        const big = await measure(browser, host, true);
        const keyPage = big.keyPage ?? [];
        const keyDriver = big.keyDriver ?? [];
        rows.push({
          engine,
          'last message visible (ms)':
            big.notAtEnd !== undefined
              ? 'never (not at the end)'
              : `${big.visibleAtInstall ? '≤ ' : ''}${Math.round(big.lastVisibleMs)}`,
          'longest frame gap (ms)': Math.round(big.longestGapMs ?? Number.NaN),
          'gaps > 100 ms': big.gapsOver100 ?? 0,
          frames: big.frames ?? 0,
          'key→paint p90 / max, from keydown (ms)': `${Math.round(quantile(keyPage, 0.9))} / ${Math.round(Math.max(0, ...keyPage))}`,
          'key→paint p90 / max, from the driver (ms)': `${Math.round(quantile(keyDriver, 0.9))} / ${Math.round(Math.max(0, ...keyDriver))}`,
          'driver round trip (ms)': Number((big.roundTripMs ?? Number.NaN).toFixed(1)),
          'nodes 2,000 / 50': `${big.nodes} / ${small.nodes}`,
          'elements 2,000 / 50': `${big.elements} / ${small.elements}`,
        });
        if (small.notAtEnd !== undefined)
          notes.push(
            `${engine}: the 50-message page opened away from its end and stayed there (${small.notAtEnd}).`,
          );
        notes.push(...missing(engine, big));
      } finally {
        await browser.close();
      }
    }
    printTable(
      `2,000 messages, a reply streaming a word per ${WORD_MS} ms, ${KEYS} key presses 150 ms apart, 390×844, CPU unthrottled`,
      rows,
    );
    for (const note of notes) console.log(note);
  } finally {
    await scene.close();
  }
}

await main();
