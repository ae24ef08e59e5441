import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pairResponseSchema } from '@webbridge/contract';
import { openDatabase } from '@webbridge/host';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// What the devices were paired under is kept in SQLite (kv `devices.pairedUnder`), so that a
// host started with another code forgets them. It must not let a copy of the database (a
// backup, a synced folder) test guesses of the access code offline: it is keyed with a random
// key kept in the data dir, outside the database.

const BINDING = 'devices.pairedUnder';
const WRONG_CODE = 'wrong-guess-code-5512';

let hosts: TestHost[] = [];
const copies: string[] = [];
afterEach(async () => {
  for (const host of hosts) await host.close(true);
  hosts = [];
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startTestHost>[0] = {}): Promise<TestHost> {
  const host = await startTestHost(options);
  hosts.push(host);
  return host;
}

async function pair(h: TestHost): Promise<string> {
  const response = await fetch(`${h.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code: TEST_CODE, name: 'Phone' }),
  });
  expect(response.status).toBe(200);
  return pairResponseSchema.parse(await response.json()).credential;
}

const stateStatus = async (h: TestHost, secret: string) =>
  (await fetch(`${h.url}/api/state`, { headers: { Authorization: `Bearer ${secret}` } })).status;

/** The kept binding of a (closed) data dir, read straight from its database. */
function keptBinding(dataDir: string): string {
  const db = openDatabase(dataDir);
  try {
    const row = db.prepare('SELECT value FROM kv WHERE key = ?').get(BINDING) as
      | { value: string }
      | undefined;
    return row?.value ?? '';
  } finally {
    db.close();
  }
}

/** A copy of the data dir's database files alone, in a new folder: what a backup of it holds. */
function copyOfDatabase(dataDir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'webbridge-db-copy-'));
  copies.push(copy);
  for (const name of ['webbridge.db', 'webbridge.db-wal']) {
    if (existsSync(join(dataDir, name))) copyFileSync(join(dataDir, name), join(copy, name));
  }
  return copy;
}

/** The digests anyone can compute from a guess: plain SHA-256, alone and as older hosts kept it. */
function unkeyedDigests(code: string): string[] {
  return [code, `webbridge device binding\0${code}`].map((text) =>
    createHash('sha256').update(text).digest('hex'),
  );
}

describe('the code binding in the database', () => {
  it('a copy of the database alone cannot confirm a guessed code', async () => {
    const h = await start();
    const credential = await pair(h);
    await h.close();
    const copy = copyOfDatabase(h.dataDir);
    const kept = keptBinding(copy);
    expect(kept).not.toBe('');
    // The digests a guess gives without the key are not what is kept...
    for (const digest of unkeyedDigests(TEST_CODE)) expect(kept).not.toContain(digest);
    // ...and the host itself, given the copy alone, cannot tell the right code from a wrong one:
    // under either, the device paired under the right code is forgotten.
    for (const accessCode of [TEST_CODE, WRONG_CODE]) {
      const dataDir = copyOfDatabase(copy);
      const onCopy = await start({ dataDir, accessCode });
      expect(await stateStatus(onCopy, credential), accessCode).toBe(401);
      await onCopy.close(true);
    }
    // With the data dir's key beside it, the right code keeps the device paired, a wrong one not.
    const same = await start({ dataDir: h.dataDir });
    expect(await stateStatus(same, credential)).toBe(200);
    await same.close();
    const other = await start({ dataDir: h.dataDir, accessCode: WRONG_CODE });
    expect(await stateStatus(other, credential)).toBe(401);
  });

  it('the key is a file of its own in the data dir, mode 0600, and no copy of it is in the database', async () => {
    const h = await start();
    await pair(h);
    await h.close();
    const keyFile = join(h.dataDir, 'device-binding.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    const bytes = readdirSync(h.dataDir)
      .filter((name) => name.startsWith('webbridge.db'))
      .map((name) => readFileSync(join(h.dataDir, name)).toString('latin1'))
      .join('');
    expect(bytes).not.toContain(key);
  });

  it('a binding kept by an older host (plain SHA-256) keeps its devices under the right code and is replaced', async () => {
    const h = await start();
    const credential = await pair(h);
    await h.close();
    // What hosts before the key wrote.
    const [, older] = unkeyedDigests(TEST_CODE);
    const db = openDatabase(h.dataDir);
    db.prepare('UPDATE kv SET value = ? WHERE key = ?').run(
      JSON.stringify({ control: older, view: null }),
      BINDING,
    );
    db.close();
    const again = await start({ dataDir: h.dataDir });
    // Nobody is logged out by the change...
    expect(await stateStatus(again, credential)).toBe(200);
    await again.close();
    // ...and the plain digest is gone from the binding.
    expect(keptBinding(h.dataDir)).not.toContain(older);

    // An older binding of another code still forgets the devices.
    const db2 = openDatabase(h.dataDir);
    const [, otherOlder] = unkeyedDigests(WRONG_CODE);
    db2
      .prepare('UPDATE kv SET value = ? WHERE key = ?')
      .run(JSON.stringify({ control: otherOlder, view: null }), BINDING);
    db2.close();
    const moved = await start({ dataDir: h.dataDir });
    expect(await stateStatus(moved, credential)).toBe(401);
  });

  it('a damaged key is replaced; the devices it bound are forgotten rather than trusted', async () => {
    const h = await start();
    const credential = await pair(h);
    await h.close();
    writeFileSync(join(h.dataDir, 'device-binding.key'), 'not a key\n', { mode: 0o644 });
    const again = await start({ dataDir: h.dataDir });
    expect(await stateStatus(again, credential)).toBe(401);
    expect(await stateStatus(again, TEST_CODE)).toBe(200);
    await again.close();
    expect(statSync(join(h.dataDir, 'device-binding.key')).mode & 0o777).toBe(0o600);
  });
});
