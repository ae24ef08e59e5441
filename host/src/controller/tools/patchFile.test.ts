import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolContext, toolWorkspace, writeTree } from '../../testing/toolTesting';
import { patchFile } from './patchFile';
import type { ToolArgs } from './Tool';

function patch(workspace: string, args: ToolArgs): string {
  const out = patchFile.run(args, toolContext(workspace));
  if (typeof out !== 'string') throw new Error('patch_file answers at once');
  return out;
}

const read = (workspace: string, name: string) => fs.readFileSync(path.join(workspace, name), 'utf8');

describe('patch_file', () => {
  it('replaces text that occurs once, literally, and keeps the file mode', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, { 'src/app.js': 'const a = 1;\nconst b = 2;\n' });
    const file = path.join(workspace, 'src/app.js');
    fs.chmodSync(file, 0o750);
    expect(patch(workspace, { path: 'src/app.js', find: 'b = 2', replace: "b = '$&$1'" })).toBe(
      'Patched src/app.js: 1 edit (at line 2).',
    );
    expect(read(workspace, 'src/app.js')).toBe("const a = 1;\nconst b = '$&$1';\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o750);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['app.js']);
  });

  it('applies several edits in order, each against the text the previous ones left', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, { 'notes.md': 'one\ntwo\nthree\n' });
    const out = patch(workspace, {
      path: 'notes.md',
      edits: [
        { find: 'one', replace: 'uno' },
        { find: 'uno\ntwo', replace: 'uno\ndos' },
        { find: 'three', replace: 'tres' },
      ],
    });
    expect(out).toBe('Patched notes.md: 3 edits (at lines 1, 1, 3).');
    expect(read(workspace, 'notes.md')).toBe('uno\ndos\ntres\n');
  });

  it('writes atomically: a new file replaces the old one by rename', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, { 'a.txt': 'old text' });
    const file = path.join(workspace, 'a.txt');
    const before = fs.statSync(file).ino;
    const held = fs.openSync(file, 'r');
    patch(workspace, { path: 'a.txt', find: 'old', replace: 'new' });
    // A reader that opened the old file still reads the old text, whole.
    const buffer = Buffer.alloc(64);
    expect(buffer.subarray(0, fs.readSync(held, buffer, 0, 64, 0)).toString()).toBe('old text');
    fs.closeSync(held);
    expect(fs.statSync(file).ino).not.toBe(before);
    expect(read(workspace, 'a.txt')).toBe('new text');
  });

  it('fails clearly when find is missing or ambiguous, and then changes nothing', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, { 'a.txt': 'x = 1\nx = 1\ny = 2\n' });
    expect(() => patch(workspace, { path: 'a.txt', find: 'z', replace: 'q' })).toThrow(
      'The text to find does not occur in a.txt; nothing was changed.',
    );
    expect(() => patch(workspace, { path: 'a.txt', find: 'x = 1', replace: 'x = 3' })).toThrow(
      /occurs 2 times in a\.txt; include more surrounding text/,
    );
    expect(() =>
      patch(workspace, {
        path: 'a.txt',
        edits: [
          { find: 'y = 2', replace: 'y = 3' },
          { find: 'missing', replace: '' },
        ],
      }),
    ).toThrow(/^Edit 2: the text to find does not occur/);
    expect(read(workspace, 'a.txt')).toBe('x = 1\nx = 1\ny = 2\n');
    expect(fs.readdirSync(workspace)).toEqual(['a.txt']);
  });

  it('refuses malformed calls', () => {
    const { workspace } = toolWorkspace();
    writeTree(workspace, { 'a.txt': 'text', 'bin.dat': Buffer.from([1, 0, 2]) });
    const refusals: [ToolArgs, RegExp][] = [
      [{ path: 'a.txt', find: '', replace: 'x' }, /empty/],
      [{ path: 'a.txt', find: 'text' }, /"replace" must be a string/],
      [{ path: 'a.txt', find: 'a', replace: 'b', edits: [{ find: 'a', replace: 'b' }] }, /not both/],
      [{ path: 'a.txt', edits: [] }, /non-empty list/],
      [{ path: 'a.txt', edits: [{ find: 'text' }] }, /Edit 1 must have/],
      [{ path: 'missing.txt', find: 'a', replace: 'b' }, /does not exist/],
      [{ path: '.', find: 'a', replace: 'b' }, /not a file/],
      [{ path: 'bin.dat', find: 'a', replace: 'b' }, /binary/],
    ];
    for (const [args, error] of refusals)
      expect(() => patch(workspace, args), JSON.stringify(args)).toThrow(error);
  });

  it('refuses paths that escape the workspace: .., absolute, symlinks out', () => {
    const { workspace, outside } = toolWorkspace();
    writeTree(outside, { 'target.txt': 'secret' });
    fs.symlinkSync(path.join(outside, 'target.txt'), path.join(workspace, 'link.txt'));
    fs.symlinkSync(outside, path.join(workspace, 'dir'));
    const escapes: [string, RegExp][] = [
      ['../outside/target.txt', /leaves/],
      [path.join(outside, 'target.txt'), /absolute/],
      ['link.txt', /outside/],
      ['dir/target.txt', /outside/],
    ];
    for (const [target, error] of escapes) {
      expect(() => patch(workspace, { path: target, find: 'secret', replace: 'owned' })).toThrow(error);
    }
    expect(fs.readFileSync(path.join(outside, 'target.txt'), 'utf8')).toBe('secret');
  });

  it('summarises a call for the approval', () => {
    expect(patchFile.summarize({ path: 'a.txt', find: 'old', replace: 'new' })).toBe(
      'Patch a.txt: old → new',
    );
    expect(patchFile.summarize({ path: 'a.txt', edits: [{}, {}] })).toBe('Patch a.txt (2 edits)');
  });
});
