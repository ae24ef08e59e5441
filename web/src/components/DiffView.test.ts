// @vitest-environment happy-dom
import { h, render } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiffView } from './DiffView';

const settle = async (root: HTMLElement) => {
  for (let i = 0; i < 50 && !root.querySelector('.diff-lines'); i++)
    await new Promise((r) => setTimeout(r, 20));
};

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

  it('marks a new file and collapses a long one behind "show more"', async () => {
    const text = Array.from({ length: 500 }, (_, i) => `row ${i}`).join('\n');
    render(h(DiffView, { diff: { path: 'big.txt', oldText: null, newText: text } }), root);
    await settle(root);
    expect(root.querySelector('.diff-badge-new')?.textContent).toBe('New file');
    expect(root.querySelectorAll('.diff-line-add')).toHaveLength(120);
    root.querySelector<HTMLButtonElement>('button.diff-more')?.click();
    // The whole file is drawn in idle slices, not in one long task.
    const counts = new Set<number>();
    for (let i = 0; i < 100 && !counts.has(500); i++) {
      await new Promise((r) => setTimeout(r, 20));
      counts.add(root.querySelectorAll('.diff-line-add').length);
    }
    expect(Math.min(...counts)).toBeLessThan(500);
    expect(root.querySelectorAll('.diff-line-add')).toHaveLength(500);
    expect(root.querySelector('button.diff-more')).toBeNull();
  });

  it('marks a deletion', async () => {
    render(h(DiffView, { diff: { path: 'gone.md', oldText: 'a\nb\n', newText: '' } }), root);
    await settle(root);
    expect(root.querySelector('.diff-badge-delete')?.textContent).toBe('Deleted');
    expect(root.querySelectorAll('.diff-line-del')).toHaveLength(2);
  });
});
