import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unifiedDiff';

const lines = (count: number, change?: number) =>
  `${Array.from({ length: count }, (_, i) => (i === change ? `line ${i} changed` : `line ${i}`)).join('\n')}\n`;

describe('unifiedDiff', () => {
  it('counts and pairs a modified line, marking the words that changed', () => {
    const diff = unifiedDiff('const a = 1;\nkeep\n', 'const a = 2;\nkeep\nadded\n', 3);
    expect(diff).toMatchObject({ change: 'modify', added: 2, removed: 1 });
    const [del, add] = diff.rows;
    expect(del).toMatchObject({ kind: 'del', line: 1 });
    expect(del?.words?.filter((w) => w.changed).map((w) => w.text)).toEqual(['1']);
    expect(add?.words?.filter((w) => w.changed).map((w) => w.text)).toEqual(['2']);
    expect(diff.rows.at(-1)).toEqual({ kind: 'add', line: 3, text: 'added' });
  });

  it('says a new file and a deletion at a glance', () => {
    expect(unifiedDiff(null, 'a\nb\n', 3)).toMatchObject({ change: 'new', added: 2, removed: 0 });
    expect(unifiedDiff('a\nb\n', '', 3)).toMatchObject({ change: 'delete', added: 0, removed: 2 });
  });

  it('collapses a long file to the changed hunk, and shows it whole on demand', () => {
    const before = lines(1000);
    const after = lines(1000, 500);
    const compact = unifiedDiff(before, after, 3);
    expect(compact.rows).toHaveLength(1 + 3 + 2 + 3);
    expect(compact.rows[0]).toMatchObject({ kind: 'hunk', line: 498 });
    const whole = unifiedDiff(before, after, Number.POSITIVE_INFINITY);
    expect(whole.rows).toHaveLength(1001);
    expect(whole.rows.some((row) => row.kind === 'hunk')).toBe(false);
  });

  it('does not compare very long lines word by word', () => {
    const diff = unifiedDiff(`${'x'.repeat(600)}\n`, `${'y'.repeat(600)}\n`, 3);
    expect(diff.rows.every((row) => row.words === undefined)).toBe(true);
  });
});
