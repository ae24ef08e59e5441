import { describe, expect, it } from 'vitest';
import { lexMarkdown } from './lexMarkdown';
import { longMarkdown, SAMPLE } from './samples';

const types = (text: string) => lexMarkdown(text).tokens.map((t) => t.type);

describe('lexMarkdown', () => {
  it('reads GFM: tables, task lists, strikethrough, autolinks, nested lists, footnotes, math', () => {
    const { tokens } = lexMarkdown(SAMPLE);
    expect(tokens.filter((t) => t.type !== 'space').map((t) => t.type)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'table',
      'blockquote',
      'code',
      'paragraph',
      'math',
      'hr',
      'code',
      'paragraph',
      'def',
      'footnote',
    ]);
    const json = JSON.stringify(tokens);
    expect(json).toContain('"type":"del"');
    expect(json).toContain('"task":true');
    expect(json).toContain('"href":"https://example.test/path"');
    expect(json).toContain('"href":"http://www.example.test"');
    expect(json).toContain('"type":"footnoteRef","raw":"[^1]","label":"1"');
    expect(json).toContain('"tex":"E = mc^2"');
    // Money is not math.
    expect(json).toContain('costs $5 and $10');
  });

  it('renders an unfinished fence (a reply still streaming) as code so far', () => {
    const { tokens } = lexMarkdown('Look:\n```py\nprint(1)\nprint(');
    expect(tokens.at(-1)).toMatchObject({ type: 'code', lang: 'py', text: 'print(1)\nprint(' });
  });

  it('keeps HTML as html tokens (rendered as text, never markup)', () => {
    expect(types('<script>alert(1)</script>')).toEqual(['html']);
  });

  it('gives the same tokens streamed word by word as lexed at once', () => {
    for (const doc of [
      SAMPLE,
      longMarkdown(400),
      '- a\n\n- b\n\n  more b\n\nafter\n\n```\nx\n\ny\n```\n\nend',
      'See [this][r] first.\n\nOne paragraph.\n\nAnother one.\n\n[r]: https://example.test/r\n\nAfter the definition.',
    ]) {
      const words = doc.split(/(?<=\s)/);
      let lexed = lexMarkdown('');
      let text = '';
      for (const word of words) {
        text += word;
        lexed = lexMarkdown(text, lexed);
        expect(JSON.stringify(lexed.tokens), text).toBe(JSON.stringify(lexMarkdown(text).tokens));
      }
    }
  });

  it('keeps the tokens of finished blocks (same objects) when a word is appended', () => {
    const text = longMarkdown(2000);
    const before = lexMarkdown(text);
    const after = lexMarkdown(`${text} more`, before);
    let kept = 0;
    while (after.tokens[kept] === before.tokens[kept]) kept++;
    expect(kept).toBeGreaterThan(before.tokens.length - 4);
  });
});
