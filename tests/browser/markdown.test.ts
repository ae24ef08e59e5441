import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE } from '../../web/src/markdown/samples';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, DESKTOP, launchBrowser, openConnected, PHONE, shot } from './browserHarness';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dist');
const PYTHON = 'def f(x):\n    return x ** 2';
const UNSAFE = [
  'Links: [click](javascript:alert(1)), [data](data:text/html,hi), [rel](/relative),',
  '[mail](mailto:me@example.test) and [web](https://example.test/ok).',
  '',
  '<img src=x onerror=alert(1)> <script>alert(2)</script>',
].join('\n');

/** Sends `text` for the echo model to answer with, and returns the reply's locator. */
async function ask(page: Page, text: string) {
  const before = await page.locator('.message-assistant').count();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  const reply = page.locator('.message-assistant').nth(before);
  await reply.and(page.locator('.status-complete')).waitFor({ timeout: 15_000 });
  return reply;
}

/** The chunks the page fetched, by the start of their file name (`highlight`, `katex`, …). */
function recordChunks(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const file = /\/assets\/([A-Za-z]+)-[\w-]+\.(?:js|css)$/.exec(request.url())?.[1];
    if (file) seen.push(file);
  });
  return seen;
}

describe('markdown, code and math in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 2 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });
  // Each test starts in an empty conversation: what earlier replies loaded (the highlighter,
  // KaTeX) must not be loaded already for the next.
  beforeEach(async () => {
    await h.host.controller.executor.run(() =>
      h.host.controller.conversations.newConversation(undefined, 'Markdown'),
    );
  });

  it('keeps the parser, highlighter and KaTeX out of the initial page', () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    expect(html).not.toMatch(/MarkdownView|highlight|katex/);
  });

  it('renders GFM tables, task lists, strikethrough, nested lists, autolinks and footnotes', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const reply = await ask(page, SAMPLE);
    const table = reply.locator('table');
    expect(await table.locator('thead th').allTextContents()).toEqual(['Name', 'Value', 'Note']);
    expect(await table.locator('tbody tr').count()).toBe(2);
    expect(await table.locator('tbody tr').first().locator('td').nth(1).getAttribute('style')).toContain(
      'text-align: right',
    );
    const boxes = reply.locator('li.task > input[type="checkbox"]');
    expect(await boxes.count()).toBe(2);
    expect(await boxes.nth(1).isChecked()).toBe(true);
    expect(await boxes.nth(0).isDisabled()).toBe(true);
    expect(await reply.locator('del').textContent()).toBe('struck');
    expect(await reply.locator('ul > li > ul > li').count()).toBe(2);
    expect(await reply.locator('ol > li').nth(1).locator('p').count()).toBe(2);
    expect(await reply.locator('blockquote em').textContent()).toBe('text');
    expect(await reply.locator('a[href="https://example.test/path"]').count()).toBe(1);
    expect(await reply.locator('a[href="http://www.example.test"]').count()).toBe(1);
    expect(await reply.locator('a[href="https://example.test/ref"]').textContent()).toBe('ref link');
    // Footnotes: a raised number, the definition at the end, and links both ways that scroll
    // without touching the address (its fragment carries the access code).
    const ref = reply.locator('sup.footnote-ref a');
    expect(await ref.textContent()).toBe('1');
    const note = reply.locator('.footnotes li');
    expect(await note.textContent()).toContain("The footnote's text, with emphasis.");
    const hash = await page.evaluate('location.hash');
    await ref.click();
    expect(await page.evaluate('location.hash')).toBe(hash);
    expect(await page.evaluate('document.activeElement?.closest(".footnotes") !== null')).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens only http, https and mailto links, safely; raw HTML stays text', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    const reply = await ask(page, UNSAFE);
    const hrefs = await reply
      .locator('.body a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['mailto:me@example.test', 'https://example.test/ok']);
    for (const rel of await reply
      .locator('.body a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('rel'))))
      expect(rel).toBe('noopener noreferrer');
    const unsafe = reply.locator('span.unsafe-link', { hasText: 'click' });
    expect(await unsafe.count()).toBe(1);
    await unsafe.click();
    expect(await reply.locator('img, script').count()).toBe(0);
    expect(await reply.locator('.body').textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(dialogs).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('highlights a code block once it is complete, with its grammar alone loaded lazily', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const chunks = recordChunks(page);
    const reply = await ask(page, `Some code:\n\n\`\`\`python\n${PYTHON}\n\`\`\`\n\nAnd after it.`);
    const code = reply.locator('.code-block code');
    await code.and(page.locator('[data-highlighted="yes"]')).waitFor();
    expect(await code.locator('.hljs-keyword').allTextContents()).toEqual(['def', 'return']);
    expect(await code.locator('.hljs-title').first().textContent()).toBe('f');
    expect(await code.textContent()).toBe(PYTHON);
    expect(await reply.locator('.code-lang').textContent()).toBe('python');
    expect(chunks).toContain('highlight');
    // Python's grammar alone, not every language's: each is its own chunk.
    expect(chunks).toContain('python');
    for (const other of ['typescript', 'webGrammars', 'cpp', 'bash'])
      expect(chunks, other).not.toContain(other);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('typesets $…$ and $$…$$ with KaTeX served by the app, showing the source until it loads', async () => {
    // No service worker: what it fetches for the page would not pass through page.route.
    const context = await browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${h.url}/#code=${TEST_CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor();
    const chunks = recordChunks(page);
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(h.url)) foreign.push(request.url());
    });
    // Hold KaTeX back a moment, to see what shows meanwhile.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/katex-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const reply = await ask(
      page,
      'Euler: $e^{i\\pi} + 1 = 0$ costs $5 and $10.\n\n$$\n\\frac{a}{b} = \\sqrt{x^2}\n$$',
    );
    expect(await reply.locator('.math-source').first().textContent()).toBe('$e^{i\\pi} + 1 = 0$');
    release();
    await reply.locator('.math .katex').first().waitFor();
    expect(await reply.locator('.math-display .katex-display').count()).toBe(1);
    expect(await reply.locator('.math .katex-mathml annotation').first().textContent()).toBe(
      'e^{i\\pi} + 1 = 0',
    );
    expect(await reply.locator('.body').textContent()).toContain('costs $5 and $10.');
    // KaTeX's own fonts are in use (served from this origin), not a fallback font.
    await page.evaluate('document.fonts.ready');
    expect(await page.evaluate("document.fonts.check('16px KaTeX_Main')")).toBe(true);
    expect(chunks).toEqual(expect.arrayContaining(['katex']));
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('copies a code block and a whole message with the Clipboard API', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
    const text = `Run this:\n\n\`\`\`python\n${PYTHON}\n\`\`\``;
    const reply = await ask(page, text);
    await reply.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(PYTHON);
    expect(await reply.getByRole('button', { name: 'Copy code: Copied' }).count()).toBe(1);
    await reply.getByRole('button', { name: 'Copy message' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(text);
    // The person's own messages have one too.
    await page.locator('.message-user').last().getByRole('button', { name: 'Copy message' }).click();
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(text);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('copies without the Clipboard API (plain HTTP), or selects the text and says so', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
    const reply = await ask(page, `\`\`\`python\n${PYTHON}\n\`\`\``);
    // As on a page served over plain HTTP: no navigator.clipboard.
    await page.evaluate(
      "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }), 0",
    );
    await reply.getByRole('button', { name: 'Copy code' }).click();
    await reply.getByRole('button', { name: 'Copy code: Copied' }).waitFor();
    const reader = await context.newPage();
    await reader.goto(`${h.url}/`);
    expect(await reader.evaluate('navigator.clipboard.readText()')).toBe(PYTHON);
    await reader.close();
    // And where execCommand('copy') is refused too: the code is selected, the button says so.
    await page.evaluate('(document.execCommand = () => false), 0');
    await reply.locator('.code-block .copy-button').click();
    await reply.getByRole('button', { name: 'Copy code: Selected: press Ctrl+C' }).waitFor();
    expect(await page.evaluate('getSelection().toString()')).toBe(PYTHON);
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const [screen, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(`looks right on the ${screen} in ${scheme} (screenshots)`, async () => {
        const { page, problems, context } = await openConnected(browser, h, viewport, scheme);
        const reply = await ask(page, SAMPLE);
        await reply.locator('.math .katex').first().waitFor();
        await reply.locator('[data-highlighted="yes"]').first().waitFor();
        await page.evaluate('document.fonts.ready');
        // The reply's start (heading, links, lists, tasks) and its end (code, math, footnotes).
        await page.evaluate(
          "[...document.querySelectorAll('.message-assistant')].at(-1).scrollIntoView({ block: 'start' })",
        );
        await shot(page, `markdown-${screen}-${scheme}-start`);
        await page.evaluate(
          "[...document.querySelectorAll('.message-assistant')].at(-1).scrollIntoView({ block: 'end' })",
        );
        await shot(page, `markdown-${screen}-${scheme}-end`);
        expect(problems).toEqual([]);
        await context.close();
      }, 30_000);
    }
  }
});
