import type { Target, TargetLike } from './EnginePage';

/** A target as selector and text. */
export function toTarget(target: TargetLike): Target {
  return typeof target === 'string' ? { css: target } : target;
}

/**
 * Page-side JavaScript (text: it runs in every engine alike, and the tests compile without the
 * DOM library) listing the elements of a target, visible ones first.
 */
function matches(target: Target): string {
  return `(() => {
    const all = [...document.querySelectorAll(${JSON.stringify(target.css)})]
      .filter((e) => ${JSON.stringify(target.hasText ?? null)} === null || (e.textContent || '').includes(${JSON.stringify(target.hasText ?? '')}));
    const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    return { all, shown: all.filter(shown) };
  })()`;
}

/** The first visible element of the target that a person could act on (null if none yet). */
export function actionable(target: TargetLike): string {
  return `(${matches(toTarget(target))}).shown.find((e) => !e.disabled) ?? null`;
}

/**
 * The target's first actionable element once a click on its centre would land on it, else null
 * (after scrolling it into view if it is outside the viewport, for the next try). Its box must
 * be the same two frames apart: a drawer sliding in is visible and enabled from its first frame
 * while still outside the viewport, and puppeteer's click in Firefox then fails ("Node is
 * either not clickable or not an Element"). And the centre must hit it or something inside
 * it (or a label of it), not an overlay. Playwright's click waits for the same; WebDriver's
 * and puppeteer's do not.
 */
export function clickable(target: TargetLike): string {
  return `(async () => {
    const element = ${actionable(target)};
    if (!element) return null;
    const box = () => {
      const r = element.getBoundingClientRect();
      return [r.left, r.top, r.width, r.height];
    };
    const before = box();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const [left, top, width, height] = box();
    if (!element.isConnected || [left, top, width, height].some((v, i) => v !== before[i])) return null;
    const x = left + width / 2;
    const y = top + height / 2;
    if (width < 1 || height < 1 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
      element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      return null;
    }
    const hit = document.elementFromPoint(x, y);
    const lands = hit && (element.contains(hit) || [...(element.labels ?? [])].some((l) => l.contains(hit)));
    return lands ? element : null;
  })()`;
}

/** The first element of the target, shown or not (a file input is often hidden), or null. */
export function firstOf(target: TargetLike): string {
  return `(${matches(toTarget(target))}).all[0] ?? null`;
}

/** How many elements match; how many are visible. */
export function counts(target: TargetLike): string {
  return `(() => { const m = ${matches(toTarget(target))}; return [m.all.length, m.shown.length]; })()`;
}

/** The first match's text, or ''. */
export function textOf(target: TargetLike): string {
  return `(${matches(toTarget(target))}).all[0]?.textContent ?? ''`;
}

/**
 * Sets a field's value through the element's own value setter and announces it with one input
 * event, as a paste does (what Playwright's `fill` does too): the same in every engine, where
 * WebDriver's key typing differs (WebKit types nothing for a newline).
 */
export function fillScript(target: TargetLike, text: string): string {
  return `(() => {
    const field = ${actionable(target)};
    if (!field) return false;
    field.focus();
    const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(field, ${JSON.stringify(text)});
    field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: ${JSON.stringify(text)} }));
    return true;
  })()`;
}

/**
 * Records the page's uncaught errors and unhandled rejections in `window.__engineProblems`
 * (WebDriver classic, WebKit's protocol here, reports neither); installed after each load.
 */
export const RECORD_PROBLEMS = `(() => {
  if (window.__engineProblems) return 0;
  const seen = (window.__engineProblems = []);
  addEventListener('error', (event) => seen.push('pageerror: ' + event.message));
  addEventListener('unhandledrejection', (event) => seen.push('unhandled rejection: ' + String(event.reason)));
  return 0;
})()`;

/** What {@link RECORD_PROBLEMS} has seen. */
export const READ_PROBLEMS = 'window.__engineProblems ?? []';
