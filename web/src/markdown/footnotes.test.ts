// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './MarkdownView';

let root: HTMLElement;

function show(text: string): HTMLElement {
  root = document.createElement('div');
  document.body.append(root);
  render(h(MarkdownView, { text }), root);
  return root;
}

afterEach(() => {
  render(null, root);
  root.remove();
});

/** The element an in-page link points at, found by its id in the rendered message. */
function targetOf(el: HTMLElement, link: Element): Element | null {
  const id = decodeURIComponent((link.getAttribute('href') ?? '').slice(1));
  return [...el.querySelectorAll('[id]')].find((node) => node.id === id) ?? null;
}

describe('footnote ids', () => {
  it('are unique per message, even for a label that looks like a reference id ([^x] and [^ref-x])', () => {
    const el = show('One[^x] and two[^ref-x].\n\n[^x]: Note x.\n[^ref-x]: Note ref-x.');
    const ids = [...el.querySelectorAll('[id]')].map((node) => node.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('each reference jumps to its own note, and each note back to its own reference', () => {
    const el = show('One[^x] and two[^ref-x].\n\n[^x]: Note x.\n[^ref-x]: Note ref-x.');
    const refs = [...el.querySelectorAll('sup.footnote-ref a')];
    expect(refs.map((a) => a.textContent)).toEqual(['1', '2']);
    expect(refs.map((a) => targetOf(el, a)?.textContent?.replace('↩', '').trim())).toEqual([
      'Note x.',
      'Note ref-x.',
    ]);
    const backs = [...el.querySelectorAll('.footnotes a.footnote-back')];
    expect(backs.map((a) => targetOf(el, a))).toEqual(refs);
  });
});
