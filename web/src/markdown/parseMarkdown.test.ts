import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './parseMarkdown';

describe('parseMarkdown', () => {
  it('parses paragraphs, headings, lists, quotes, rules and fenced code', () => {
    const blocks = parseMarkdown(
      '# Title\n\nSome *text*.\n\n- a\n- b\n  - nested\n\n1. one\n2. two\n\n> quoted\n\n---\n\n```ts\nconst x = 1;\n```',
    );
    expect(blocks.map((b) => b.t)).toEqual(['h', 'p', 'list', 'list', 'quote', 'hr', 'pre']);
    const bullets = blocks[2];
    expect(bullets?.t === 'list' && bullets.items.length).toBe(2);
    expect(bullets?.t === 'list' && bullets.items[1]?.map((b) => b.t)).toEqual(['p', 'list']);
    const numbered = blocks[3];
    expect(numbered?.t === 'list' && numbered.ordered && numbered.start).toBe(1);
    expect(blocks[6]).toEqual({ t: 'pre', lang: 'ts', v: 'const x = 1;' });
  });

  it('renders an unfinished fence (a reply still streaming) as code so far', () => {
    expect(parseMarkdown('Look:\n```py\nprint(1)\nprint(')).toEqual([
      { t: 'p', c: [{ t: 'text', v: 'Look:' }] },
      { t: 'pre', lang: 'py', v: 'print(1)\nprint(' },
    ]);
  });

  it('keeps HTML as text: nothing becomes markup', () => {
    const blocks = parseMarkdown('<img src=x onerror=alert(1)> <script>alert(1)</script>');
    expect(blocks).toEqual([
      { t: 'p', c: [{ t: 'text', v: '<img src=x onerror=alert(1)> <script>alert(1)</script>' }] },
    ]);
  });
});

describe('parseInline', () => {
  it('parses code, bold, italic, strikethrough, links and bare URLs', () => {
    expect(parseInline('a `b*c` **d** _e_ ~~f~~ [g](https://x.test/g) see https://y.test/h.')).toEqual([
      { t: 'text', v: 'a ' },
      { t: 'code', v: 'b*c' },
      { t: 'text', v: ' ' },
      { t: 'strong', c: [{ t: 'text', v: 'd' }] },
      { t: 'text', v: ' ' },
      { t: 'em', c: [{ t: 'text', v: 'e' }] },
      { t: 'text', v: ' ' },
      { t: 'del', c: [{ t: 'text', v: 'f' }] },
      { t: 'text', v: ' ' },
      { t: 'link', href: 'https://x.test/g', c: [{ t: 'text', v: 'g' }] },
      { t: 'text', v: ' see ' },
      { t: 'link', href: 'https://y.test/h', c: [{ t: 'text', v: 'https://y.test/h' }] },
      { t: 'text', v: '.' },
    ]);
  });

  it('drops links that are not web or mail addresses, keeping their text', () => {
    expect(parseInline('[click](javascript:alert(1))')).toEqual([{ t: 'text', v: 'click' }]);
    expect(parseInline('[x](data:text/html,hi)')).toEqual([{ t: 'text', v: 'x' }]);
  });

  it('leaves snake_case words and lone markers alone', () => {
    expect(parseInline('a_b_c and 2 * 3')).toEqual([{ t: 'text', v: 'a_b_c and 2 * 3' }]);
  });

  it('turns newlines into line breaks', () => {
    expect(parseInline('a\nb')).toEqual([{ t: 'text', v: 'a' }, { t: 'br' }, { t: 'text', v: 'b' }]);
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
