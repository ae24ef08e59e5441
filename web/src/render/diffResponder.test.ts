// @vitest-environment happy-dom
import { common, createLowlight } from 'lowlight';
import { h, render } from 'preact';
import { describe, expect, it, vi } from 'vitest';
import { createHighlighter } from '../markdown/highlight';
import { createHighlighterLoader } from '../markdown/loadHighlighter';
import { coloursToPreact } from './coloursToPreact';
import type { ColouredRow, DiffAnswer } from './diffMessages';
import { ROWS_PER_MESSAGE } from './diffMessages';
import { createDiffResponder } from './diffResponder';
import { hastToPreact } from './hastToPreact';
import { unifiedDiff } from './unifiedDiff';

/** What the page drew before, highlighting each row itself with every common grammar. */
const lowlight = createLowlight(common);

/** A TypeScript file of `lines` lines, every tenth changed in the new text. */
function file(lines: number, changed: boolean): string {
  return Array.from({ length: lines }, (_, i) =>
    i % 10 === 3 && changed
      ? `export const v${i} = \`tpl \${${i} + 1}\`; // changed`
      : `export function f${i}(a: number): string { return 'x' + a * ${i}; }`,
  ).join('\n');
}

/** A responder and the answers it posted so far. */
function responder(load = createHighlighterLoader(async () => createHighlighter())) {
  const answers: DiffAnswer[] = [];
  return { answers, answer: createDiffResponder((each) => answers.push(each), load) };
}

/** The HTML Preact draws for `children`. */
function html(children: ReturnType<typeof hastToPreact>): string {
  const root = document.createElement('code');
  render(h('code', null, children), root);
  return root.innerHTML;
}

describe('the diff worker protocol', () => {
  it('starts with the counts and the first rows, then sends one message each time the page asks for more', async () => {
    const oldText = file(1000, false);
    const newText = file(1000, true);
    const { answers, answer } = responder();
    await answer({ kind: 'diff', id: 7, oldText, newText, context: 3, lang: 'ts' });
    const expected = unifiedDiff(oldText, newText, 3);
    const [start] = answers;
    expect(answers).toHaveLength(1);
    if (start?.kind !== 'start') throw new Error(`began with ${start?.kind}`);
    expect(start.head).toEqual({
      change: expected.change,
      added: expected.added,
      removed: expected.removed,
      total: expected.rows.length,
      gaps: true,
      coloured: true,
    });
    const rows: ColouredRow[] = [...start.rows];
    expect(start.rows).toHaveLength(ROWS_PER_MESSAGE);
    for (let asked = 1; ; asked++) {
      await answer({ kind: 'more', id: 7 });
      // One answer per request for more, never ahead of it.
      expect(answers).toHaveLength(asked + 1);
      const last = answers.at(-1);
      if (last?.kind !== 'rows') break;
      expect(last.id).toBe(7);
      expect(last.rows.length).toBeLessThanOrEqual(ROWS_PER_MESSAGE);
      rows.push(...last.rows);
    }
    expect(answers.at(-1)).toEqual({ id: 7, kind: 'done' });
    expect(rows.map(({ colours, ...row }) => row)).toEqual(expected.rows);
  });

  it('says whether lines are left out: none for a whole new file, and a change of no rows still ends', async () => {
    const { answers, answer } = responder();
    await answer({ kind: 'diff', id: 8, oldText: null, newText: 'a\nb\n', context: 3, lang: '' });
    await answer({ kind: 'diff', id: 9, oldText: 'same\n', newText: 'same\n', context: 3, lang: 'ts' });
    await answer({ kind: 'more', id: 9 });
    expect(answers.map((a) => [a.id, a.kind, a.kind === 'start' ? a.head.gaps : undefined])).toEqual([
      [8, 'start', false],
      [9, 'start', true],
      [9, 'done', undefined],
    ]);
  });

  it("colours every row the page coloured, as the same spans the page drew from lowlight's tree", async () => {
    const { answers, answer } = responder();
    await answer({
      kind: 'diff',
      id: 1,
      oldText: file(40, false),
      newText: file(40, true),
      context: 3,
      lang: 'ts',
    });
    const sent = answers[0];
    if (sent?.kind !== 'start') throw new Error('no rows');
    let coloured = 0;
    for (const row of sent.rows) {
      if (row.kind === 'hunk' || row.words) {
        expect(row.colours).toBeUndefined();
        continue;
      }
      coloured++;
      expect(row.colours).toBeDefined();
      expect(html(coloursToPreact(row.text, row.colours ?? { classes: [], marks: [] }))).toBe(
        html(hastToPreact(lowlight.highlight('typescript', row.text))),
      );
    }
    expect(coloured).toBeGreaterThan(10);
    // Spans nested in spans (a template's substitution) come out nested, and the rows of a
    // message share one table of class names.
    expect(
      sent.rows.some((row) =>
        /<span[^>]*>[^<]*<span/.test(
          html(coloursToPreact(row.text, row.colours ?? { classes: [], marks: [] })),
        ),
      ),
    ).toBe(true);
    const tables = new Set(sent.rows.map((row) => row.colours?.classes).filter(Boolean));
    expect(tables.size).toBe(1);
  });

  it('loads no grammar for a language none knows, and says the rows need no colours', async () => {
    const load = vi.fn(createHighlighterLoader(async () => createHighlighter()));
    const { answers, answer } = responder(load);
    await answer({ kind: 'diff', id: 2, oldText: 'a\n', newText: 'b\nc\n', context: 3, lang: 'nosuchlang' });
    await answer({ kind: 'more', id: 2 });
    expect(load).not.toHaveBeenCalled();
    const [start] = answers;
    expect(start?.kind === 'start' && start.rows.every((row) => row.colours === undefined)).toBe(true);
    expect(start).toMatchObject({ kind: 'start', head: { coloured: true } });
  });

  it('leaves the colours to the page when the grammar does not load in the worker', async () => {
    const { answers, answer } = responder(async () => null);
    await answer({
      kind: 'diff',
      id: 3,
      oldText: 'let a = 1;\n',
      newText: 'let a = 1;\nlet b = 2;\n',
      context: 3,
      lang: 'ts',
    });
    await answer({ kind: 'more', id: 3 });
    const [start] = answers;
    expect(start?.kind === 'start' && start.rows.every((row) => row.colours === undefined)).toBe(true);
    expect(start).toMatchObject({ kind: 'start', head: { coloured: false } });
  });

  it('answers an error when the rows cannot be computed', async () => {
    const { answers, answer } = responder();
    await answer({
      kind: 'diff',
      id: 4,
      oldText: 'a',
      newText: null as unknown as string,
      context: 3,
      lang: 'ts',
    });
    expect(answers).toEqual([{ id: 4, kind: 'error', error: expect.any(String) }]);
  });
});
