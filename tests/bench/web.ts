/**
 * The web client's budget (issue 4), measured: initial JavaScript and CSS (gzip) of web/dist,
 * first paint of the connection page, time to render a 2,000-message conversation, and the
 * layout shift while a reply streams; the lazy chunks with their sizes, and the cost of
 * re-rendering a 2,000-word reply after one more word (markdownRender.ts). A real host runs in
 * this process; Debian's Chromium loads the built page from it over loopback.
 *
 * Run: npx pnpm --filter @webbridge/web build && node --import tsx tests/bench/web.ts
 * (`--shots` also saves screenshots of the long conversation into tests/.artifacts/.)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startHost } from '@webbridge/host';
import type { Browser } from 'playwright-core';
import { assertWebBuilt, DESKTOP, launchBrowser, PHONE, shot } from '../browser/browserHarness';
import {
  readFirstMatches,
  readLayoutShift,
  sendAndWaitForReply,
  startLayoutShiftRecording,
  timeWhenPresent,
  watchFirstMatches,
} from '../browser/pageMetrics';
import {
  LONG_REPLY_PROMPT,
  PACED_MODEL,
  STREAMED_REPLY,
  scriptedModels,
  seedConversation,
} from '../browser/scriptedModel';
import { markdownRenderRows } from './markdownRender';
import { printTable, quantile } from './table';

const CODE = 'bench-web-3m8q-5tz1';
const EXCHANGES = 1000;
const PAINT_RUNS = 5;
const RENDER_RUNS = 3;
// WEBBRIDGE_BENCH_WEB_DIST measures another build (an earlier commit's, to compare on one machine).
const dist =
  process.env.WEBBRIDGE_BENCH_WEB_DIST ??
  join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
const median = (values: number[]) => quantile(values, 0.5);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The files index.html loads before the page can run, and what each one imports statically. */
function initialFiles(): { js: string[]; css: string[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const js = new Set<string>();
  const css = new Set<string>();
  for (const [, src] of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) if (src) js.add(src);
  for (const [tag, href] of html.matchAll(/<link[^>]*\bhref="([^"]+)"[^>]*>/g)) {
    if (href === undefined) continue;
    if (/rel="stylesheet"/.test(tag)) css.add(href);
    else if (/rel="modulepreload"/.test(tag)) js.add(href);
  }
  // Static imports between chunks load at start too; dynamic import() chunks do not.
  const queue = [...js];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const code = readFileSync(join(dist, file), 'utf8');
    for (const [, spec] of code.matchAll(
      /(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["'](\.\/[^"']+)["']/g,
    )) {
      const next = join(dirname(file), spec ?? '');
      if (!js.has(next)) {
        js.add(next);
        queue.push(next);
      }
    }
  }
  return { js: [...js], css: [...css] };
}

function bundleRows(): Record<string, string | number>[] {
  const { js, css } = initialFiles();
  const size = (files: string[]) => {
    let raw = 0;
    let gz = 0;
    for (const file of files) {
      const bytes = readFileSync(join(dist, file));
      raw += bytes.length;
      gz += gzipSync(bytes, { level: 9 }).length;
    }
    return { raw, gz };
  };
  const j = size(js);
  const c = size(css);
  return [
    {
      what: 'initial JavaScript',
      files: js.length,
      raw: kib(j.raw),
      gzip: kib(j.gz),
      budget: '≤ 50 KiB gzip',
    },
    { what: 'initial CSS', files: css.length, raw: kib(c.raw), gzip: kib(c.gz), budget: '—' },
  ];
}

/**
 * Everything else the build holds: chunks loaded by `import()` when first needed (the
 * markdown renderer, the highlighter, KaTeX and its stylesheet), each with its size, and
 * KaTeX's fonts as one row (fetched by the browser only for the faces a formula uses).
 */
function lazyRows(): Record<string, string | number>[] {
  const { js, css } = initialFiles();
  const initial = new Set([...js, ...css].map((file) => file.replace(/^\//, '')));
  const rows: Record<string, string | number>[] = [];
  let fonts = 0;
  let fontBytes = 0;
  for (const name of readdirSync(join(dist, 'assets')).sort()) {
    const file = `assets/${name}`;
    if (initial.has(file)) continue;
    const bytes = readFileSync(join(dist, file));
    if (/\.(woff2?|ttf)$/.test(name)) {
      fonts++;
      fontBytes += bytes.length;
      continue;
    }
    if (!/\.(js|css)$/.test(name)) continue;
    rows.push({
      'lazy chunk': name.replace(/-[\w-]{8}\./, '.'),
      raw: kib(bytes.length),
      gzip: kib(gzipSync(bytes, { level: 9 }).length),
    });
  }
  rows.push({ 'lazy chunk': `KaTeX fonts (${fonts} files, woff2/woff/ttf)`, raw: kib(fontBytes), gzip: '—' });
  return rows;
}

async function paintRows(browser: Browser, url: string): Promise<Record<string, string | number>[]> {
  const fp: number[] = [];
  const fcp: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < PAINT_RUNS; i++) {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(url);
    // The moment the code field is on screen (the first frame after it exists).
    ready.push(await timeWhenPresent(page, '#access-code'));
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const entries = (await page.evaluate(
      "performance.getEntriesByType('paint').map((e) => [e.name, e.startTime])",
    )) as [string, number][];
    const of = (name: string) => entries.find(([n]) => n === name)?.[1] ?? Number.NaN;
    fp.push(of('first-paint'));
    fcp.push(of('first-contentful-paint'));
    await context.close();
  }
  const ms = (values: number[]) =>
    `${median(values).toFixed(0)} ms (${values.map((v) => v.toFixed(0)).join(', ')})`;
  return [
    { what: 'connection page: first paint', [`median of ${PAINT_RUNS} (each)`]: ms(fp), budget: '≤ 1 s' },
    {
      what: 'connection page: first contentful paint',
      [`median of ${PAINT_RUNS} (each)`]: ms(fcp),
      budget: '—',
    },
    {
      what: 'connection page: code field on screen',
      [`median of ${PAINT_RUNS} (each)`]: ms(ready),
      budget: '—',
    },
  ];
}

async function renderRows(
  browser: Browser,
  url: string,
  lastId: string,
  messages: number,
  shots: boolean,
): Promise<Record<string, string | number>[]> {
  const toLast: number[] = [];
  const toAll: number[] = [];
  const toLive: number[] = [];
  const longest: number[] = [];
  for (let i = 0; i < RENDER_RUNS; i++) {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // Long tasks from the start, to see how long the main thread was blocked at worst.
    await page.addInitScript(`(() => {
      window.__longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      }).observe({ type: 'longtask', buffered: true });
    })()`);
    // The earlier messages are added above in idle-time steps; all of them are in the DOM
    // once the list is no longer busy.
    const moments = [
      `[data-message-id="${lastId}"]`,
      '.message-list[aria-busy="false"]',
      '.badge[data-status="live"]',
    ];
    await watchFirstMatches(page, moments);
    await page.goto(`${url}/#code=${CODE}`);
    const seen = await readFirstMatches(page, moments);
    const [atLast = Number.NaN, atAll = Number.NaN, atLive = Number.NaN] = moments.map((m) => seen[m]);
    toLast.push(atLast);
    toAll.push(atAll);
    toLive.push(atLive);
    await page.waitForTimeout(300);
    longest.push(Number(await page.evaluate('window.__longest')));
    const count = Number(await page.evaluate("document.querySelectorAll('.message').length"));
    if (count !== messages) throw new Error(`the page shows ${count} messages, not ${messages}`);
    if (shots && i === 0) await shot(page, 'bench-desktop-2000-messages');
    await context.close();
  }
  if (shots) {
    const context = await browser.newContext({ viewport: PHONE, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${url}/#code=${CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 60_000 });
    await shot(page, 'bench-phone-2000-messages-dark');
    await context.close();
  }
  const ms = (values: number[]) =>
    `${median(values).toFixed(0)} ms (${values.map((v) => v.toFixed(0)).join(', ')})`;
  return [
    {
      what: `${messages} messages: navigation → last message in the DOM`,
      [`median of ${RENDER_RUNS} (each)`]: ms(toLast),
    },
    {
      what: `${messages} messages: navigation → all ${messages} in the DOM`,
      [`median of ${RENDER_RUNS} (each)`]: ms(toAll),
    },
    {
      what: `${messages} messages: navigation → live (stream's snapshot applied)`,
      [`median of ${RENDER_RUNS} (each)`]: ms(toLive),
    },
    {
      what: `${messages} messages: longest main-thread task`,
      [`median of ${RENDER_RUNS} (each)`]: ms(longest),
    },
  ];
}

async function shiftRows(browser: Browser, url: string): Promise<Record<string, string | number>[]> {
  const rows: Record<string, string | number>[] = [];
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${url}/#code=${CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 60_000 });
    await sendAndWaitForReply(page, LONG_REPLY_PROMPT, {
      timeoutMs: 60_000,
      beforeEnter: () => startLayoutShiftRecording(page),
    });
    const shift = await readLayoutShift(page);
    rows.push({
      screen: `${name} ${viewport.width}×${viewport.height}`,
      'layout shift, sum of all entries': shift.all.toFixed(4),
      'without recent input (CLS)': shift.withoutInput.toFixed(4),
      entries: shift.entries,
      budget: '0',
    });
    if (shift.sources.length > 0) console.log(`${name}, shifts:\n  ${shift.sources.join('\n  ')}`);
    await context.close();
  }
  return rows;
}

async function main(): Promise<void> {
  assertWebBuilt();
  const shots = process.argv.includes('--shots');
  console.log(`web client benchmark — ${new Date().toISOString()}, Node ${process.version}`);
  printTable('Initial load (files index.html loads, gzip -9)', bundleRows());
  printTable('Loaded later, when first needed (gzip -9)', lazyRows());

  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-bench-web-'));
  const [host, browser] = await Promise.all([
    startHost({
      dataDir,
      staticDir: dist,
      accessCode: CODE,
      providers: [scriptedModels(15)],
      logLevel: 'silent',
      tuning: { authThrottle: { freeFailures: 1000 } },
    }),
    launchBrowser(),
  ]);
  try {
    printTable(
      'Connection page on loopback (Chromium, fresh context each, 390×844)',
      await paintRows(browser, host.url),
    );
    printTable(
      'Markdown while streaming (Chromium; see markdownRender.ts)',
      await markdownRenderRows(browser),
    );

    const started = performance.now();
    await seedConversation(host, EXCHANGES, PACED_MODEL);
    const state = host.controller.readState();
    const { messages } = state.conversations;
    const lastId = messages.at(-1)?.id ?? '';
    const stateBytes = (
      await (
        await fetch(`${host.url}/api/state`, { headers: { Authorization: `Bearer ${CODE}` } })
      ).arrayBuffer()
    ).byteLength;
    console.log(
      `\nseeded ${EXCHANGES} exchanges (${messages.length} messages, GET /api/state ${kib(stateBytes)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    printTable(
      'Long conversation (Chromium, 1280×800, fresh context each, code in the fragment)',
      await renderRows(browser, host.url, lastId, messages.length, shots),
    );
    printTable(
      `Layout shift while a ${STREAMED_REPLY.split(/\s+/).length}-word markdown reply streams (15 ms a word) after ${messages.length} messages`,
      await shiftRows(browser, host.url),
    );
  } finally {
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
