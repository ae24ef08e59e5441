// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeEntities } from './decodeEntities';
import { MarkdownView } from './MarkdownView';
import { safeHref } from './safeHref';

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

describe('MarkdownView', () => {
  it('renders inline markup as elements, keeps snake_case and lone markers, breaks lines', () => {
    const el = show('a `b*c` **d** _e_ ~~f~~ a_b_c and 2 * 3\nnext');
    expect(el.querySelector('code')?.textContent).toBe('b*c');
    expect(el.querySelector('strong')?.textContent).toBe('d');
    expect(el.querySelector('em')?.textContent).toBe('e');
    expect(el.querySelector('del')?.textContent).toBe('f');
    expect(el.textContent).toContain('a_b_c and 2 * 3');
    expect(el.querySelectorAll('br')).toHaveLength(1);
  });

  it('opens web and mail links in a new tab without referrer or opener; others stay text', () => {
    const el = show(
      '[a](https://x.test/a) [b](mailto:b@x.test) [c](javascript:alert(1)) [d](data:text/html,hi)',
    );
    const links = [...el.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://x.test/a', 'mailto:b@x.test']);
    for (const a of links) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    }
    expect([...el.querySelectorAll('.unsafe-link')].map((s) => s.textContent)).toEqual(['c', 'd']);
  });

  it('shows raw HTML as the text it is', () => {
    const el = show('<img src=x onerror=alert(1)> and <script>alert(1)</script>\n\n<div>block</div>');
    expect(el.querySelector('img, script, div')).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(el.textContent).toContain('<div>block</div>');
  });

  it('numbers footnotes by first reference and lists them at the end', () => {
    const el = show('B[^b] then A[^a].\n\n[^a]: About a.\n[^b]: About b.');
    expect([...el.querySelectorAll('sup a')].map((a) => a.textContent)).toEqual(['1', '2']);
    expect([...el.querySelectorAll('.footnotes li')].map((li) => li.textContent)).toEqual([
      'About b.↩',
      'About a.↩',
    ]);
  });

  it('renders only the last blocks again when a word is appended', () => {
    const el = show('# Title\n\nFirst paragraph.\n\nSecond');
    const first = el.querySelector('p');
    render(h(MarkdownView, { text: '# Title\n\nFirst paragraph.\n\nSecond paragraph' }), root);
    expect(el.querySelector('p')).toBe(first);
    expect(el.querySelectorAll('p')[1]?.textContent).toBe('Second paragraph');
  });
});

describe('safeHref', () => {
  it('accepts http, https and mailto only', () => {
    expect(safeHref('https://a.test')).toBe('https://a.test');
    expect(safeHref('mailto:me@a.test')).toBe('mailto:me@a.test');
    expect(safeHref('JavaScript:alert(1)')).toBeNull();
    expect(safeHref('/relative')).toBeNull();
    expect(safeHref('vbscript:x')).toBeNull();
  });
});

describe('decodeEntities', () => {
  it('decodes named and numeric references, and leaves unknown ones', () => {
    expect(decodeEntities('a &amp; b &copy; &#x41;&#66; &bogus; &#0;')).toBe('a & b © AB &bogus; \ufffd');
  });
});
