import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// From Node 24.19 (nodejs/node#63642) `node::ObjectWrap`, which better-sqlite3 12 compiles in,
// removes a per-object environment cleanup hook in its destructor, and that removal aborts the
// process (`Assertion failed: (env) != nullptr`) when the garbage collector frees a statement
// while the current V8 context is not a Node.js one — as it is while a new context is being
// made (vm, or a library that makes one). `db.pragma()` and one-off `db.prepare()` leave such
// statements behind; vitest workers died of it ("Worker exited unexpectedly") on Node 24.
// The child opens the host's database the way the host does and then makes contexts while
// those statements are garbage; it must live to print its line.
describe('regression: a SQLite statement freed while a V8 context is being made', () => {
  it('does not abort the process', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-gc-'));
    try {
      const script = `
        import vm from 'node:vm';
        import { openDatabase } from './host/src/db/openDatabase.ts';
        const db = openDatabase(${JSON.stringify(dataDir)});
        for (let round = 0; round < 200; round++) {
          for (let i = 0; i < 200; i++) db.pragma('user_version', { simple: true });
          vm.createContext({});
        }
        db.close();
        console.log('alive');
      `;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect({ signal: child.signal, status: child.status, stderr: child.stderr }).toEqual({
        signal: null,
        status: 0,
        stderr: '',
      });
      expect(child.stdout.trim()).toBe('alive');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
