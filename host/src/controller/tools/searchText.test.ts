import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolContext, toolWorkspace, writeTree } from '../../testing/toolTesting';
import { createSearchText, searchText } from './searchText';
import type { ToolArgs } from './Tool';

function search(workspace: string, args: ToolArgs, tool = searchText): string {
  const out = tool.run(args, toolContext(workspace));
  if (typeof out !== 'string') throw new Error('search_text answers at once');
  return out;
}

describe('search_text', () => {
  it('finds a plain-text pattern case-insensitively and answers file:line: text', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, {
      'a.txt': 'nothing here\nthe Needle is here\r\nlast line',
      'src/b.ts': 'const needle = 1;\n',
      'src/deep/c.md': '# NEEDLE.*(regex chars are plain)\n',
      'z.txt': 'no match',
    });
    expect(search(workspace, { pattern: 'needle' }).split('\n')).toEqual([
      'a.txt:2: the Needle is here',
      'src/b.ts:1: const needle = 1;',
      'src/deep/c.md:1: # NEEDLE.*(regex chars are plain)',
    ]);
    expect(search(workspace, { pattern: 'needle', caseSensitive: true })).toBe(
      'src/b.ts:1: const needle = 1;',
    );
    expect(search(workspace, { pattern: 'E.*(' })).toBe('src/deep/c.md:1: # NEEDLE.*(regex chars are plain)');
    expect(search(workspace, { pattern: 'needle', path: 'src/deep' })).toBe(
      'src/deep/c.md:1: # NEEDLE.*(regex chars are plain)',
    );
    expect(search(workspace, { pattern: 'needle', path: 'a.txt' })).toBe('a.txt:2: the Needle is here');
    expect(search(workspace, { pattern: 'absent' })).toBe('No matches for "absent".');
  });

  it('skips .git, node_modules, binary files and files over 1 MiB', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, {
      '.git/config': 'needle',
      'node_modules/pkg/index.js': 'needle',
      'image.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]),
      'big.log': `needle${'x'.repeat(1024 * 1024)}`,
      'kept.txt': 'needle',
    });
    expect(search(workspace, { pattern: 'needle' }).split('\n')).toEqual([
      'kept.txt:1: needle',
      '(skipped 1 file over 1 MiB)',
    ]);
  });

  it('stops at maxResults and says so, and cuts long lines around the match', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, {
      'many.txt': Array.from({ length: 80 }, (_, i) => `hit ${i}`).join('\n'),
      'long.txt': `${'a'.repeat(500)}hit${'b'.repeat(500)}`,
    });
    const lines = search(workspace, { pattern: 'hit', path: 'many.txt' }).split('\n');
    expect(lines).toHaveLength(51);
    expect(lines[49]).toBe('many.txt:50: hit 49');
    expect(lines[50]).toMatch(/first 50 matches/);
    expect(search(workspace, { pattern: 'hit', path: 'many.txt', maxResults: 3 }).split('\n')).toHaveLength(
      4,
    );
    const long = search(workspace, { pattern: 'hit', path: 'long.txt' });
    expect(long).toMatch(/^long\.txt:1: …a+hitb+…$/);
    expect(long.length).toBeLessThan(230);
    expect(() => search(workspace, { pattern: 'hit', maxResults: 0 })).toThrow(/whole number/);
    expect(() => search(workspace, { pattern: '' })).toThrow(/empty/);
    expect(() => search(workspace, { pattern: 'a\nb' })).toThrow(/single line/);
  });

  it('is bounded in time and in files read', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, { 'a.txt': 'hit', 'b.txt': 'hit', 'c.txt': 'hit' });
    expect(search(workspace, { pattern: 'hit' }, createSearchText({ maxFiles: 2 })).split('\n')).toEqual([
      'a.txt:1: hit',
      'b.txt:1: hit',
      '(the search stopped after 2 files; results are incomplete; search a subfolder)',
    ]);
    expect(search(workspace, { pattern: 'hit' }, createSearchText({ timeBudgetMs: 0 }))).toMatch(
      /No matches[\s\S]*ran out of time/,
    );
  });

  it('counts the folder walk against the time budget (a tree of empty folders)', () => {
    const { workspace } = toolWorkspace();
    for (let i = 0; i < 3000; i++) fs.mkdirSync(path.join(workspace, `d${i}`, 'e', 'f'), { recursive: true });
    // No file ever reaches the per-file clock check: only the walk can notice the budget.
    expect(search(workspace, { pattern: 'x' }, createSearchText({ timeBudgetMs: 5 }))).toMatch(
      /ran out of time/,
    );
  });

  it('refuses paths outside the workspace and never follows symlinks out of it', () => {
    const { workspace, outside } = toolWorkspace();
    writeTree(outside, { 'secret.txt': 'needle outside' });
    writeTree(workspace, { 'inside.txt': 'needle inside' });
    fs.symlinkSync(outside, path.join(workspace, 'linked-folder'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'linked-file.txt'));
    expect(search(workspace, { pattern: 'needle' })).toBe('inside.txt:1: needle inside');
    expect(() => search(workspace, { pattern: 'needle', path: '..' })).toThrow(/leaves/);
    expect(() => search(workspace, { pattern: 'needle', path: outside })).toThrow(/absolute/);
    expect(() => search(workspace, { pattern: 'needle', path: 'linked-folder' })).toThrow(/outside/);
    expect(() => search(workspace, { pattern: 'needle', path: 'missing' })).toThrow(/does not exist/);
  });
});
