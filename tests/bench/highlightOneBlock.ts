/**
 * What highlighting one TypeScript block costs a page that has not highlighted anything yet
 * (issues 27, 29): in Chromium with its CPU throttled, a fresh page imports web/'s built
 * highlighter chunk, registers what TypeScript needs and highlights a 40-line block, as a
 * finished code block or the agent's diff card does. Prints, per build: the JavaScript fetched
 * (bytes, and gzip -9 for scale), the time from the import to the grammars registered and to
 * the highlighted tree (median and max of the runs; the first highlight compiles the grammar),
 * the same block highlighted again (no compiling) and the longest task meanwhile, with the load average (the machine is shared).
 *
 * A build with one chunk of every grammar (lowlight's `common`, before) exports `highlight`;
 * a build with a chunk per grammar exports `createHighlighter`, and the bench loads the core and
 * the grammars TypeScript needs (typescript, javascript, css, graphql, xml: the last four in one
 * chunk, webGrammars, where the build has it) side by side, as web/src/markdown/loadHighlighter.ts
 * does.
 * Run: pnpm --filter @webbridge/web build && node --import tsx tests/bench/highlightOneBlock.ts
 * Options: `--dist <dir>` (repeatable: builds compared in turn; default web/dist), `--rate 6`
 * (CPU throttle; default 6), `--runs 5`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/browserHarness';
import { printTable, quantile } from './table';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const dists = args.flatMap((arg, i) => (args[i - 1] === '--dist' ? [arg] : []));
if (dists.length === 0) dists.push(join(here, '..', '..', 'web', 'dist'));
const rate = Number(option('--rate') ?? '6');
const runs = Number(option('--runs') ?? '5');
/** What a TypeScript block needs: its grammar and those it embeds (web/src/markdown/grammars.ts). */
const TYPESCRIPT_NEEDS = ['typescript', 'javascript', 'css', 'graphql', 'xml'];

const BLOCK = Array.from(
  { length: 10 },
  (_, i) =>
    `export async function step${i}(input: Record<string, number>): Promise<string> {\n` +
    `  const total = Object.values(input).reduce((a, b) => a + b, 0); // sum ${i}\n` +
    '  return `total: ` + String(total);\n}',
).join('\n');

/** The chunks a build's page fetches to highlight one TypeScript block. */
function chunksOf(dist: string): string[] {
  const files = readdirSync(join(dist, 'assets'));
  const find = (name: string) => {
    const file = files.find((f) => new RegExp(`^${name}-[\\w-]{8}\\.js$`).test(f));
    if (!file) throw new Error(`no ${name} chunk in ${dist}`);
    return file;
  };
  if (!files.some((f) => /^typescript-[\w-]{8}\.js$/.test(f))) return [find('highlight')];
  // The grammars TypeScript embeds, in one chunk (webGrammars) or each in its own.
  const grouped = files.some((f) => /^webGrammars-[\w-]{8}\.js$/.test(f));
  return [find('highlight'), ...(grouped ? ['typescript', 'webGrammars'] : TYPESCRIPT_NEEDS).map(find)];
}

/** Serves `dist`'s assets and an empty page on a free port of this machine. */
async function serve(dist: string): Promise<{ origin: string; close: () => void }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title>');
      return;
    }
    try {
      const body = readFileSync(join(dist, 'assets', path.replace(/^\/assets\//, '').replace(/\//g, '')));
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

/** Page-side: the longest task since the page started, in `__longest`. */
const LONGEST_TASK = `globalThis.__longest = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) globalThis.__longest = Math.max(globalThis.__longest, e.duration);
}).observe({ type: 'longtask', buffered: true });`;

/** One run in a fresh context (nothing cached, nothing evaluated): its times in ms. */
async function measure(browser: Browser, origin: string, chunks: readonly string[]) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(LONGEST_TASK);
    await page.goto(origin);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    return await page.evaluate(
      async ({ chunks, block }) => {
        const start = performance.now();
        const [core, ...grammars] = await Promise.all(chunks.map((chunk) => import(`/assets/${chunk}`)));
        let highlight: (code: string, lang: string) => unknown = core.highlight;
        if (grammars.length > 0) {
          const highlighter = core.createHighlighter();
          highlighter.register(
            Object.fromEntries(
              grammars.flatMap((g, i) =>
                // A grammar's own chunk exports it as default, a shared one by name.
                g.default
                  ? [[/^([a-z]+)-/.exec(chunks[i + 1] ?? '')?.[1] ?? '', g.default]]
                  : Object.entries(g),
              ),
            ),
          );
          highlight = highlighter.highlight;
        }
        const loaded = performance.now() - start;
        // The first highlight also compiles the grammar (highlight.js does it on first use).
        const tree = highlight(block, 'ts');
        const ms = performance.now() - start;
        const again = performance.now();
        highlight(block, 'ts');
        const second = performance.now() - again;
        // Long tasks are reported after they end.
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!JSON.stringify(tree).includes('hljs-keyword')) throw new Error('the block was not highlighted');
        return { ms, loaded, second, task: (globalThis as unknown as { __longest: number }).__longest };
      },
      { chunks, block: BLOCK },
    );
  } finally {
    await context.close();
  }
}

const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
console.log(
  `highlight one TypeScript block — ${new Date().toISOString()}, CPU ÷${rate}, load ${loadAverage()}`,
);
const browser = await launchBrowser();
const builds = await Promise.all(
  dists.map(async (dist) => ({
    dist,
    chunks: chunksOf(dist),
    ...(await serve(dist)),
    results: [] as Awaited<ReturnType<typeof measure>>[],
  })),
);
try {
  // The builds in turn, run after run: a busy moment of the shared machine falls on both.
  for (let run = 0; run < runs; run++)
    for (const build of builds) build.results.push(await measure(browser, build.origin, build.chunks));
} finally {
  for (const build of builds) build.close();
  await browser.close();
}
printTable(
  `one 40-line TypeScript block, first on the page, ${runs} runs each`,
  builds.map(({ dist, chunks, results }) => {
    const bytes = chunks.map((chunk) => readFileSync(join(dist, 'assets', chunk)));
    const median = (key: 'ms' | 'loaded' | 'second' | 'task') =>
      quantile(
        results.map((r) => r[key]),
        0.5,
      );
    return {
      build: dist,
      chunks: chunks.length,
      'JS (bytes)': bytes.reduce((sum, b) => sum + b.length, 0),
      'gzip -9 (bytes)': bytes.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0),
      'import → registered, median (ms)': median('loaded'),
      'import → highlighted, median (ms)': median('ms'),
      'max (ms)': Math.max(...results.map((r) => r.ms)),
      'same block again (ms)': median('second'),
      'longest task, median (ms)': median('task'),
    };
  }),
);
console.log(`load average at the end: ${loadAverage()}`);
