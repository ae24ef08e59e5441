// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { highlightMatches } from './highlightMatches';

/** The Custom Highlight API, which happy-dom lacks: a registry of named sets of ranges. */
class FakeHighlight extends Set<Range> {
  constructor(...ranges: Range[]) {
    super(ranges);
  }
}

const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)));
    next(n);
  });

const texts = (name: string, registry: Map<string, Set<Range>>) =>
  [...(registry.get(name) ?? [])].map((range) => range.toString());

describe('highlightMatches', () => {
  let scroller: HTMLElement;
  beforeEach(() => {
    scroller = document.createElement('div');
    scroller.className = 'messages';
    document.body.append(scroller);
  });
  const realCss = globalThis.CSS;
  afterEach(() => {
    scroller.remove();
    Object.defineProperty(globalThis, 'CSS', { value: realCss, configurable: true, writable: true });
    Reflect.deleteProperty(globalThis, 'Highlight');
  });
  // happy-dom's CSS is a new object at each read: replaced whole, with its escape kept.
  const withHighlights = (registry: Map<string, Set<Range>>) => {
    const css = { escape: (text: string) => realCss.escape(text), highlights: registry };
    Object.defineProperty(globalThis, 'CSS', { value: css, configurable: true, writable: true });
    Object.defineProperty(globalThis, 'Highlight', { value: FakeHighlight, configurable: true });
  };

  const add = (id: string, html: string) => {
    const li = document.createElement('li');
    li.dataset.messageId = id;
    li.innerHTML = `<div class="message-head"><span>Café</span></div><div class="body">${html}</div>`;
    scroller.append(li);
    return li;
  };

  it('highlights every match in the message body, the current one apart, across elements, and clears', async () => {
    const registry = new Map<string, Set<Range>>();
    withHighlights(registry);
    add('a', '<p>A CAFÉ,</p><p>a <strong>ca</strong>fe and a café\n  au lait</p>');
    const clear = highlightMatches(scroller, 'a', 'cafe', 1);
    expect(texts('find-match', registry)).toEqual(['CAFÉ', 'café']);
    expect(texts('find-current', registry)).toEqual(['cafe']);
    clear();
    expect(registry.size).toBe(0);
    // White space folded as find folds it.
    highlightMatches(scroller, 'a', 'café au', 0);
    expect(texts('find-current', registry)).toEqual(['café\n  au']);
  });

  it('waits for a message drawn a few frames later, and follows it when drawn again', async () => {
    const registry = new Map<string, Set<Range>>();
    withHighlights(registry);
    const clear = highlightMatches(scroller, 'late', 'zurich', 0);
    await frames(3);
    expect(registry.size).toBe(0);
    const stand = add('late', 'Zurich as written');
    await frames(2);
    expect(texts('find-current', registry)).toEqual(['Zurich']);
    // The stand-in replaced by the full message.
    stand.remove();
    add('late', '<p><em>Zürich</em> drawn in full</p>');
    await frames(1);
    expect(texts('find-current', registry)).toEqual(['Zürich']);
    clear();
  });

  it('gives up waiting after the bound', async () => {
    const registry = new Map<string, Set<Range>>();
    withHighlights(registry);
    highlightMatches(scroller, 'never', 'x', 0, { waitMs: 30 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    add('never', 'x');
    await frames(3);
    expect(registry.size).toBe(0);
  });

  it('outlines the message where the API is missing, and takes the outline away on clear', () => {
    const li = add('b', 'zurich');
    const clear = highlightMatches(scroller, 'b', 'zurich', 0);
    expect(li.classList.contains('find-fallback')).toBe(true);
    clear();
    expect(li.classList.contains('find-fallback')).toBe(false);
  });
});
