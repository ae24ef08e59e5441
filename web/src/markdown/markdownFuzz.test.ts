// @vitest-environment happy-dom
import fc from 'fast-check';
import { h, render } from 'preact';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKatex } from './loadKatex';
import { MarkdownView } from './MarkdownView';

/** Pieces that mean something to markdown and to the footnote and math extensions. */
const PIECES = [
  '>',
  '> ',
  '- ',
  '* ',
  '+ ',
  '1. ',
  '2) ',
  '  ',
  '    ',
  '\t',
  '\n',
  '\n\n',
  '#',
  '## ',
  '_',
  '__',
  '*',
  '**',
  '~~',
  '`',
  '```',
  '~~~',
  '$',
  '$$',
  '[',
  ']',
  '(',
  ')',
  '[^1]',
  '[^1]: ',
  '![',
  '<',
  '>',
  '&amp;',
  '\\',
  '|',
  '|---|',
  ':',
  'http://a.test',
  'a',
  'word',
  ' ',
  '---',
  '===',
  '<div>',
  '</div>',
  '[x]',
  '[ ]',
  '"',
  "'",
];

/** Random markdown, from short to some tens of thousands of characters, with runs of one piece (nesting). */
const markdown = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PIECES),
      fc
        .tuple(
          fc.constantFrom(...PIECES),
          fc.oneof(fc.integer({ min: 2, max: 400 }), fc.integer({ min: 2_000, max: 12_000 })),
        )
        .map(([p, n]) => p.repeat(n)),
      fc.string({ maxLength: 20 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('MarkdownView against random markdown', () => {
  // Math in a random reply starts loading KaTeX (and its CSS) on demand: the test ends only once
  // that import has, or it lands after the environment is torn down, an unhandled rejection that
  // fails the whole run (seen in a clean-clone run).
  afterAll(() => loadKatex(), 30_000);

  it('never throws and renders each reply within a bounded time', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const root = document.createElement('div');
        const started = performance.now();
        try {
          render(h(MarkdownView, { text }), root);
          // Streamed: the same reply growing by a piece, as the page receives it.
          render(h(MarkdownView, { text: `${text} more` }), root);
        } finally {
          render(null, root);
        }
        // Alone here the slowest input takes ~0.3 s; the bound is generous for a machine busy
        // with other tests. An unbounded parse took tens of seconds under happy-dom.
        expect(performance.now() - started).toBeLessThan(5_000);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
