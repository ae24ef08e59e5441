/**
 * Streaming cost of the markdown renderer (issue 12): in Chromium, a 2,000-word reply is
 * rendered once, then one word at a time is appended and the message rendered again, as the
 * page does for every streamed word. Prints the median and p95 of that re-render (lexing,
 * Preact's diff and the DOM changes), with and without the layout that follows, against the
 * budget of 2 ms; and, for scale, a full lex of the same text.
 *
 * The renderer is web/src/markdown/MarkdownView.tsx itself, bundled with esbuild for the page.
 * Run: node --import tsx tests/bench/markdownRender.ts
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/browserHarness';
import { printTable, quantile } from './table';

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, '..', '..', 'web');
const WORDS = 2000;
const APPENDS = 300;

// The page under test needs no stylesheet: KaTeX's CSS import becomes an empty module.
const noCss: Plugin = {
  name: 'no-css',
  setup(b) {
    b.onResolve({ filter: /\.css$/ }, (args) => ({ path: args.path, namespace: 'no-css' }));
    b.onLoad({ filter: /.*/, namespace: 'no-css' }, () => ({ contents: '', loader: 'js' }));
  },
};

const ENTRY = `
import { h, render } from 'preact';
import { MarkdownView } from './src/markdown/MarkdownView';
import { lexMarkdown } from './src/markdown/lexMarkdown';
import { longMarkdown } from './src/markdown/samples';

window.__bench = (words, appends) => {
  const root = document.createElement('div');
  root.className = 'markdown';
  root.style.width = '720px';
  document.body.append(root);
  // Ends in a paragraph, which the appended words extend, as a streamed reply does.
  let text = longMarkdown(words) + '\\n\\nAnd the last paragraph starts';
  const words0 = text.split(/\\s+/).length;
  let t = performance.now();
  render(h(MarkdownView, { text }), root);
  const first = performance.now() - t;
  const renderOnly = [];
  const withLayout = [];
  for (let i = 0; i < appends; i++) {
    text += ' word' + i;
    t = performance.now();
    render(h(MarkdownView, { text }), root);
    const rendered = performance.now();
    void root.offsetHeight;
    const laidOut = performance.now();
    renderOnly.push(rendered - t);
    withLayout.push(laidOut - t);
  }
  const fullLex = [];
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    lexMarkdown(text);
    fullLex.push(performance.now() - t);
  }
  return { words: words0, first, renderOnly, withLayout, fullLex, blocks: root.childElementCount };
};
`;

/** Bundles the renderer for the page (once per process). */
async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: web, loader: 'js', sourcefile: 'bench-entry.js' },
    bundle: true,
    write: false,
    format: 'esm',
    minify: true,
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    nodePaths: [join(web, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [noCss],
    logLevel: 'error',
  });
  return result.outputFiles[0]?.text ?? '';
}

interface Figures {
  words: number;
  first: number;
  renderOnly: number[];
  withLayout: number[];
  fullLex: number[];
  blocks: number;
}

/** Measures in `browser` and returns the rows of the table (also used by web.ts). */
export async function markdownRenderRows(browser: Browser): Promise<Record<string, string | number>[]> {
  const code = await bundle();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: code, type: 'module' });
  await page.waitForFunction('typeof window.__bench === "function"');
  // A first run warms the JIT, as a page that has rendered replies before would be.
  await page.evaluate(`window.__bench(${WORDS}, 50)`);
  const f = (await page.evaluate(`window.__bench(${WORDS}, ${APPENDS})`)) as Figures;
  await context.close();
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  const stat = (values: number[]) => ({
    median: ms(quantile(values, 0.5)),
    p95: ms(quantile(values, 0.95)),
  });
  return [
    {
      what: `re-render after one more word (${f.words} words, ${f.blocks} blocks)`,
      ...stat(f.renderOnly),
      budget: '≤ 2 ms median',
    },
    { what: 'same, with the layout that follows', ...stat(f.withLayout), budget: '—' },
    { what: 'first render of the whole message', median: ms(f.first), p95: '—', budget: '—' },
    { what: 'for scale: lexing the whole message again', ...stat(f.fullLex), budget: '—' },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const browser = await launchBrowser();
  try {
    console.log(`markdown re-render benchmark — ${new Date().toISOString()}, Node ${process.version}`);
    printTable(
      `Markdown while streaming (Chromium, ${APPENDS} appends, after a warm-up)`,
      await markdownRenderRows(browser),
    );
  } finally {
    await browser.close();
  }
}
