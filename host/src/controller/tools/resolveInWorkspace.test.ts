import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/testController';
import { resolveInWorkspace } from './resolveInWorkspace';

function setup() {
  const base = fs.realpathSync(tempDir());
  const workspace = path.join(base, 'ws');
  const outside = path.join(base, 'ws-evil');
  fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  return { workspace, outside };
}

describe('resolveInWorkspace', () => {
  it('resolves relative paths inside the workspace, existing or not', () => {
    const { workspace } = setup();
    expect(resolveInWorkspace(workspace, 'sub/file.txt')).toBe(path.join(workspace, 'sub/file.txt'));
    expect(resolveInWorkspace(workspace, 'new/deeper/file.txt')).toBe(
      path.join(workspace, 'new/deeper/file.txt'),
    );
    expect(resolveInWorkspace(workspace, 'sub/../top.txt')).toBe(path.join(workspace, 'top.txt'));
    expect(resolveInWorkspace(workspace, '.')).toBe(workspace);
  });

  it('refuses absolute paths, .. escapes and a sibling folder with a shared prefix', () => {
    const { workspace, outside } = setup();
    expect(() => resolveInWorkspace(workspace, '/etc/passwd')).toThrow(/absolute/);
    expect(() => resolveInWorkspace(workspace, '../ws-evil/x')).toThrow(/leaves/);
    expect(() => resolveInWorkspace(workspace, 'sub/../../x')).toThrow(/leaves/);
    expect(() => resolveInWorkspace(workspace, path.join(outside, 'x'))).toThrow();
    expect(() => resolveInWorkspace(workspace, 'a\0b')).toThrow(/NUL/);
  });

  it('refuses symlinks that lead outside, even dangling ones, and allows links that stay inside', () => {
    const { workspace, outside } = setup();
    fs.symlinkSync(outside, path.join(workspace, 'out'));
    fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(workspace, 'dangling.txt'));
    fs.symlinkSync(path.join(workspace, 'sub'), path.join(workspace, 'inside'));
    expect(() => resolveInWorkspace(workspace, 'out/x.txt')).toThrow(/outside/);
    expect(() => resolveInWorkspace(workspace, 'out')).toThrow(/outside/);
    expect(() => resolveInWorkspace(workspace, 'dangling.txt')).toThrow(/broken link/);
    expect(resolveInWorkspace(workspace, 'inside/f.txt')).toBe(path.join(workspace, 'sub/f.txt'));
  });
});
