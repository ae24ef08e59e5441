import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseAccessCode, chooseViewCode, forgetCode, keepCode, readCodeFile } from './accessCodes';
import { parseServeArgs } from './parseServeArgs';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wb-codes-'));

describe('access codes', () => {
  it('generates a code once, keeps it (0600) and reuses it on the next start', () => {
    const dataDir = tempDir();
    const first = chooseAccessCode(dataDir, undefined);
    expect(first.source).toBe('generated');
    expect(first.code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const file = path.join(dataDir, 'access-code');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(chooseAccessCode(dataDir, undefined)).toEqual({ code: first.code, source: 'kept' });
  });

  it('makes kept code files left readable by an older run 0600 again on start, used or not', () => {
    const dataDir = tempDir();
    for (const file of ['access-code', 'view-code']) {
      fs.writeFileSync(path.join(dataDir, file), 'older-code-4321\n', { mode: 0o644 });
      fs.chmodSync(path.join(dataDir, file), 0o644);
    }
    // A given code wins, yet the kept ones are still on disk: tightened all the same.
    expect(chooseAccessCode(dataDir, { code: 'given-code-99', source: 'env' }).code).toBe('given-code-99');
    for (const file of ['access-code', 'view-code']) {
      expect({ file, mode: fs.statSync(path.join(dataDir, file)).mode & 0o777 }).toEqual({
        file,
        mode: 0o600,
      });
    }
    // Nothing kept yet is no error.
    expect(chooseAccessCode(tempDir(), undefined).source).toBe('generated');
  });

  it('a given code wins over the kept one; a rotated code is kept', () => {
    const dataDir = tempDir();
    keepCode(dataDir, 'access', 'kept-code-1234');
    expect(chooseAccessCode(dataDir, { code: 'given-code-99', source: 'env' }).code).toBe('given-code-99');
    keepCode(dataDir, 'access', 'rotated-code-5');
    expect(chooseAccessCode(dataDir, undefined).code).toBe('rotated-code-5');
  });

  it('the view code exists only when given or kept, and can be forgotten', () => {
    const dataDir = tempDir();
    expect(chooseViewCode(dataDir, undefined)).toBeUndefined();
    keepCode(dataDir, 'view', 'watch-only-77');
    expect(chooseViewCode(dataDir, undefined)).toEqual({ code: 'watch-only-77', source: 'kept' });
    forgetCode(dataDir, 'view');
    expect(chooseViewCode(dataDir, undefined)).toBeUndefined();
  });

  it('reads a code file (first line) and names the file when it is missing or too short', () => {
    const dir = tempDir();
    const good = path.join(dir, 'code');
    fs.writeFileSync(good, 'from-a-file-42\nsecond line\n');
    expect(readCodeFile(good, '--access-code-file')).toBe('from-a-file-42');
    expect(() => readCodeFile(path.join(dir, 'nope'), '--access-code-file')).toThrow(/nope: no such file/);
    fs.writeFileSync(good, 'short\n');
    expect(() => readCodeFile(good, '--access-code-file')).toThrow(/at least 8/);
  });
});

describe('parseServeArgs: codes and transport', () => {
  it('takes the code from a file, then the environment; the flag is marked so the CLI warns', () => {
    const file = path.join(tempDir(), 'code');
    fs.writeFileSync(file, 'file-code-1234\n');
    expect(parseServeArgs(['--access-code-file', file], {}).accessCode).toEqual({
      code: 'file-code-1234',
      source: 'file',
    });
    expect(parseServeArgs([], { WEBBRIDGE_ACCESS_CODE: 'env-code-5678' }).accessCode).toEqual({
      code: 'env-code-5678',
      source: 'env',
    });
    expect(
      parseServeArgs(['--access-code', 'flag-code-9'], { WEBBRIDGE_ACCESS_CODE: 'env-code-5678' }).accessCode,
    ).toEqual({ code: 'flag-code-9', source: 'flag' });
    expect(parseServeArgs([], { WEBBRIDGE_VIEW_CODE: 'view-code-42' }).viewCode).toEqual({
      code: 'view-code-42',
      source: 'env',
    });
  });

  it('refuses contradictions', () => {
    const file = path.join(tempDir(), 'code');
    fs.writeFileSync(file, 'file-code-1234\n');
    expect(() => parseServeArgs(['--access-code', 'abcdefgh', '--access-code-file', file], {})).toThrow(
      /not both/,
    );
    expect(() => parseServeArgs(['--access-code', 'same-code-1', '--view-code', 'same-code-1'], {})).toThrow(
      /differ/,
    );
    expect(() => parseServeArgs(['--tls-cert', 'a.pem'], {})).toThrow(/go together/);
    expect(() => parseServeArgs(['--insecure-http', '--tls'], {})).toThrow(/cannot be combined/);
    expect(() => parseServeArgs([], { WEBBRIDGE_ACCESS_CODE: 'short' })).toThrow(/WEBBRIDGE_ACCESS_CODE/);
  });

  it('reads the transport flags', () => {
    expect(parseServeArgs(['--tls', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'], {})).toMatchObject({
      tls: true,
      insecureHttp: false,
      tlsCert: path.resolve('c.pem'),
      tlsKey: path.resolve('k.pem'),
    });
    expect(parseServeArgs(['--insecure-http'], {}).insecureHttp).toBe(true);
  });
});
