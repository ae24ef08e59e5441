// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadHighlighter } from '../markdown/loadHighlighter';
import { DiffView } from './DiffView';

// The real loader, watched: which languages a diff asks for.
vi.mock('../markdown/loadHighlighter', async (real) => {
  const actual = await real<typeof import('../markdown/loadHighlighter')>();
  return { ...actual, loadHighlighter: vi.fn(actual.loadHighlighter) };
});

const settle = async (root: HTMLElement) => {
  for (let i = 0; i < 50 && !root.querySelector('.diff-lines'); i++)
    await new Promise((r) => setTimeout(r, 20));
};

/** The row counts seen until `count` rows are drawn (throws if they never are). */
async function countsUntil(root: HTMLElement, count: number, selector = '.diff-line-add'): Promise<number[]> {
  const counts: number[] = [];
  for (let i = 0; i < 250; i++) {
    counts.push(root.querySelectorAll(selector).length);
    if (counts.at(-1) === count) return counts;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${count} rows never drawn: ${counts.slice(-5).join(', ')}`);
}

describe('DiffView', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  it('shows the path, the counts and the changed words of a modified file', async () => {
    render(
      h(DiffView, { diff: { path: '/p/src/a.ts', oldText: 'let a = 1;\n', newText: 'let a = 2;\n' } }),
      root,
    );
    await settle(root);
    expect(root.querySelector('.diff-head .file-path')?.textContent).toBe('/p/src/a.ts');
    expect(root.querySelector('.diff-count-add')?.textContent).toBe('+1');
    expect(root.querySelector('.diff-count-del')?.textContent).toBe('−1');
    expect([...root.querySelectorAll('mark.diff-word')].map((m) => m.textContent)).toEqual(['1', '2']);
    expect(root.querySelector('.diff-badge')).toBeNull();
    expect(root.querySelector('section')?.getAttribute('aria-label')).toBe('Changes to /p/src/a.ts');
  });

  it('marks a new file and draws a long one in bounds, more on each "show more"', async () => {
    const text = Array.from({ length: 500 }, (_, i) => `row ${i}`).join('\n');
    const counts: number[] = [];
    const watch = new MutationObserver(() => counts.push(root.querySelectorAll('.diff-line').length));
    watch.observe(root, { subtree: true, childList: true });
    render(h(DiffView, { diff: { path: 'big.txt', oldText: null, newText: text } }), root);
    await settle(root);
    expect(root.querySelector('.diff-badge-new')?.textContent).toBe('New file');
    await countsUntil(root, 120);
    watch.disconnect();
    // Rows go into the page in idle slices, not in one long task.
    expect(counts.filter((count) => count > 0 && count < 120).length).toBeGreaterThan(0);
    const more = () => root.querySelector<HTMLButtonElement>('button.diff-more');
    // Written before the change: "show more" drew all 500 rows, on a slow phone seconds of layout.
    expect(more()?.textContent).toBe('Show more (200 lines)');
    more()?.click();
    await countsUntil(root, 320);
    expect(more()?.textContent).toBe('Show more (180 lines)');
    more()?.click();
    await countsUntil(root, 500);
    // A new file has no unchanged lines to show.
    expect(more()).toBeNull();
  });

  it('shows every hunk collapsed, then the whole file around the rows already drawn', async () => {
    const before = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`);
    const after = before.map((line, i) => (i === 9 || i === 199 ? `${line} changed` : line));
    render(
      h(DiffView, {
        diff: { path: 'a.txt', oldText: `${before.join('\n')}\n`, newText: `${after.join('\n')}\n` },
      }),
      root,
    );
    await settle(root);
    await countsUntil(root, 18, '.diff-line');
    // Two hunks of 3 + 2 + 3 rows, each after a gap.
    expect([...root.querySelectorAll('.diff-line-hunk')].map((row) => row.textContent)).toEqual([
      'Unchanged lines, then line 7',
      'Unchanged lines, then line 197',
    ]);
    const seen = root.querySelector('.diff-line-add');
    const more = () => root.querySelector<HTMLButtonElement>('button.diff-more');
    expect(more()?.textContent).toBe('Show the whole file');
    more()?.click();
    // Down to the second change's last row (line 203; two lines removed): the gaps fill, the
    // rows seen stay.
    await countsUntil(root, 205, '.diff-line');
    expect(root.querySelector('.diff-line-add')).toBe(seen);
    expect(root.querySelectorAll('.diff-line-hunk')).toHaveLength(0);
    expect(more()?.textContent).toBe('Show more (97 lines)');
    more()?.click();
    await countsUntil(root, 302, '.diff-line');
    expect([...root.querySelectorAll('.diff-line .diff-text')].at(-1)?.textContent).toBe('line 300');
    expect(more()).toBeNull();
  });

  it("colours with the file's own grammar, and draws a file no grammar knows without loading any", async () => {
    vi.mocked(loadHighlighter).mockClear();
    render(h(DiffView, { diff: { path: 'notes.zzz', oldText: 'a\nb\n', newText: 'a\nc\n' } }), root);
    await settle(root);
    expect(root.querySelectorAll('.diff-line').length).toBe(3);
    expect(loadHighlighter).not.toHaveBeenCalled();
    render(null, root);
    render(
      h(DiffView, { diff: { path: 'src/a.py', oldText: 'x = 1\n', newText: 'x = 1\ndef f(): pass\n' } }),
      root,
    );
    await settle(root);
    expect(loadHighlighter).toHaveBeenCalledWith('py');
    expect(root.querySelector('.diff-line-same .hljs-number')?.textContent).toBe('1');
  });

  it('marks a deletion', async () => {
    render(h(DiffView, { diff: { path: 'gone.md', oldText: 'a\nb\n', newText: '' } }), root);
    await settle(root);
    expect(root.querySelector('.diff-badge-delete')?.textContent).toBe('Deleted');
    expect(root.querySelectorAll('.diff-line-del')).toHaveLength(2);
  });
});
