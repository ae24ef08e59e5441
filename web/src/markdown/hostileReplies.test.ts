// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './MarkdownView';

/**
 * Replies a model can be made to write (its output is untrusted input): each used to overflow
 * the parser's stack (the app unmounted, and every reload was blank) or to hold the page for
 * seconds.
 */
const NESTED_QUOTES = `${'>'.repeat(20_000)} hi`;
const NESTED_LIST = `${'- '.repeat(6_000)}x`;
const INDENTED_LIST = Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n');
const EMPHASIS = '_a'.repeat(50_000);

let root: HTMLElement;

function show(text: string): { el: HTMLElement; ms: number } {
  root = document.createElement('div');
  document.body.append(root);
  const started = performance.now();
  render(h(MarkdownView, { text }), root);
  return { el: root, ms: performance.now() - started };
}

afterEach(() => {
  render(null, root);
  root.remove();
});

describe('MarkdownView with hostile replies', () => {
  it('shows 20,000 nested quotes as plain text with a notice instead of overflowing the stack', () => {
    const { el } = show(NESTED_QUOTES);
    expect(el.querySelector('.markdown-plain')?.textContent).toBe(NESTED_QUOTES);
    expect(el.querySelector('.markdown-notice')?.textContent).toBeTruthy();
    expect(el.querySelector('blockquote')).toBeNull();
  });

  it('shows 6,000 nested list markers as plain text with a notice', () => {
    const { el } = show(NESTED_LIST);
    expect(el.querySelector('.markdown-plain')?.textContent).toBe(NESTED_LIST);
    expect(el.querySelector('.markdown-notice')).not.toBeNull();
  });

  it('does not spend seconds on a list nested 1,000 levels deep by indentation', () => {
    const { el, ms } = show(INDENTED_LIST);
    expect(el.querySelector('.markdown-plain')?.textContent).toBe(INDENTED_LIST);
    expect(ms).toBeLessThan(1_000);
  });

  it('does not parse 100,000 characters of `_a_a…` on the page (seconds of parsing before)', () => {
    const { el, ms } = show(EMPHASIS);
    // The text shows as written at once; the page's own thread never runs the slow parse.
    expect(el.textContent).toContain(EMPHASIS);
    expect(ms).toBeLessThan(1_000);
  });

  it('still renders a reply that nests a little (quotes in lists in quotes)', () => {
    const { el } = show('> - a\n>   > b\n>   > - c\n\n1. x\n   - y\n     - z');
    expect(el.querySelectorAll('blockquote')).toHaveLength(2);
    expect(el.querySelector('.markdown-notice')).toBeNull();
    expect(el.querySelectorAll('li')).toHaveLength(5);
  });
});
