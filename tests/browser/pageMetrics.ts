/**
 * Page-side measurements of the web client in Chromium, shared by the web benchmark and the
 * browser tests. The page functions are JavaScript text: the tests' compiler has no DOM library.
 */
import type { Page } from 'playwright-core';

interface PageElement {
  readonly classList: { contains(name: string): boolean };
}

/** The page globals the functions below use (the tests are compiled without the DOM library). */
interface PageGlobals {
  readonly document: {
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): ArrayLike<PageElement>;
  };
  readonly performance: { now(): number };
}

/**
 * `performance.now()` in the page (milliseconds since navigation started) at the first frame
 * in which `selector` matches. A real function, not a string: the page's CSP forbids eval.
 */
export async function timeWhenPresent(page: Page, selector: string, timeoutMs = 60_000): Promise<number> {
  const handle = await page.waitForFunction(
    (wanted: string) => {
      const g = globalThis as unknown as PageGlobals;
      return g.document.querySelector(wanted) === null ? false : g.performance.now();
    },
    selector,
    { polling: 'raf', timeout: timeoutMs },
  );
  return Number(await handle.jsonValue());
}

/**
 * Before navigating: records, for each selector, `performance.now()` when it first matched (a
 * MutationObserver checks after every DOM change, so several moments can be timed in one
 * load, whatever order they come in). Read them with {@link readFirstMatches}.
 */
export async function watchFirstMatches(page: Page, selectors: readonly string[]): Promise<void> {
  await page.addInitScript(`(() => {
    const wanted = ${JSON.stringify(selectors)};
    const seen = {};
    window.__firstMatches = seen;
    const check = () => {
      for (const selector of wanted)
        if (!(selector in seen) && document.querySelector(selector)) seen[selector] = performance.now();
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  })()`);
}

/** Waits until every watched selector has matched; returns their times by selector. */
export async function readFirstMatches(
  page: Page,
  selectors: readonly string[],
  timeoutMs = 60_000,
): Promise<Record<string, number>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = (await page.evaluate('window.__firstMatches')) as Record<string, number>;
    if (selectors.every((selector) => selector in seen)) return seen;
    if (Date.now() > deadline)
      throw new Error(`never matched: ${selectors.filter((s) => !(s in seen)).join(', ')}`);
    await page.waitForTimeout(25);
  }
}

/** Starts summing layout-shift entries from now on (call before the change to watch). */
export async function startLayoutShiftRecording(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const cls = { all: 0, withoutInput: 0, entries: 0, sources: [] };
    window.__cls = cls;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        cls.entries++;
        cls.all += entry.value;
        if (!entry.hadRecentInput) cls.withoutInput += entry.value;
        const moved = (entry.sources ?? []).map((source) => {
          const node = source.node;
          const name = node && node.nodeType === 1
            ? node.tagName.toLowerCase() + (node.classList.length ? '.' + [...node.classList].join('.') : '')
            : node ? node.nodeName : 'removed';
          const p = source.previousRect;
          const c = source.currentRect;
          return name + ' ' + [p.x, p.y, p.width, p.height].map(Math.round).join(',') + '→' + [c.x, c.y, c.width, c.height].map(Math.round).join(',');
        });
        cls.sources.push(entry.value.toFixed(4) + (entry.hadRecentInput ? ' (input)' : '') + ' at ' + Math.round(entry.startTime) + ' ms: ' + (moved.join(', ') || 'no source'));
      }
    }).observe({ type: 'layout-shift', buffered: false });
  })()`);
}

/** What {@link readLayoutShift} returns. */
export interface LayoutShift {
  /** Sum of every layout-shift entry's value since the recording started. */
  readonly all: number;
  /** The same without shifts within 500 ms of input (what CLS counts). */
  readonly withoutInput: number;
  readonly entries: number;
  /** Each shift: its value, and the elements that moved from where to where (to find the culprit). */
  readonly sources: readonly string[];
}

/** The layout shift recorded so far, after two more frames (entries are reported late). */
export async function readLayoutShift(page: Page): Promise<LayoutShift> {
  await page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50))))',
  );
  return (await page.evaluate('window.__cls')) as LayoutShift;
}

/**
 * Sends `text` through the composer as a person would (typed in, then Enter) and waits until
 * the reply to it is complete. `beforeEnter` runs once the text is in the box.
 */
export async function sendAndWaitForReply(
  page: Page,
  text: string,
  options: { timeoutMs?: number; beforeEnter?: () => Promise<void> } = {},
): Promise<void> {
  const timeout = options.timeoutMs ?? 20_000;
  const box = page.getByRole('textbox', { name: 'Message' });
  await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout });
  // The list holds only the messages near the screen: the reply is the one after the last
  // message the conversation has now (by its place in the whole, aria-posinset).
  const lastPlace = `(() => { const all = document.querySelectorAll('.message'); return all.length === 0 ? 0 : Number(all[all.length - 1].getAttribute('aria-posinset')); })()`;
  const before = Number(await page.evaluate(lastPlace));
  await box.fill(text);
  // The box grows to fit the text in the next frames; let that happen before `beforeEnter`.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  await options.beforeEnter?.();
  await box.press('Enter');
  await page.locator(`.message-assistant[aria-posinset="${before + 2}"]`).waitFor({ timeout });
  await page.waitForFunction(
    (place: number) => {
      const g = globalThis as unknown as PageGlobals;
      return (
        g.document
          .querySelector(`.message-assistant[aria-posinset="${place}"]`)
          ?.classList.contains('status-complete') === true
      );
    },
    before + 2,
    { timeout, polling: 50 },
  );
}
