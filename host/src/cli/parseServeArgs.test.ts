import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAccessCode } from './generateAccessCode';
import { parseServeArgs } from './parseServeArgs';

describe('parseServeArgs', () => {
  it('has the documented defaults', () => {
    expect(parseServeArgs([])).toEqual({
      port: 7878,
      hostname: '127.0.0.1',
      accessCode: undefined,
      dataDir: path.join(os.homedir(), '.webbridge'),
      heartbeatMs: undefined,
      mediaTtlMs: undefined,
      echoDelayMs: 30,
      uploadLimit: undefined,
      workspaceRoots: [],
      logLevel: 'info',
      console: true,
      help: false,
    });
  });

  it('reads every flag, with repeatable workspace roots', () => {
    const config = parseServeArgs([
      '--port=0',
      '--host',
      '0.0.0.0',
      '--access-code',
      'abcd-efgh',
      '--data-dir',
      'rel/data',
      '--heartbeat-ms',
      '500',
      '--media-ttl-ms',
      '1000',
      '--echo-delay-ms',
      '0',
      '--upload-limit',
      '2048',
      '--workspace-root',
      '/a',
      '--workspace-root',
      '/b',
      '--log-level',
      'silent',
      '--no-console',
    ]);
    expect(config).toMatchObject({
      port: 0,
      hostname: '0.0.0.0',
      accessCode: 'abcd-efgh',
      dataDir: path.resolve('rel/data'),
      heartbeatMs: 500,
      mediaTtlMs: 1000,
      echoDelayMs: 0,
      uploadLimit: 2048,
      workspaceRoots: ['/a', '/b'],
      logLevel: 'silent',
      console: false,
    });
  });

  it('refuses bad values and unknown flags', () => {
    expect(() => parseServeArgs(['--port', 'http'])).toThrow(/--port/);
    expect(() => parseServeArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseServeArgs(['--heartbeat-ms', '0'])).toThrow(/--heartbeat-ms/);
    expect(() => parseServeArgs(['--log-level', 'loud'])).toThrow(/--log-level/);
    expect(() => parseServeArgs(['--bogus'])).toThrow();
  });
});

describe('generateAccessCode', () => {
  it('makes typable codes of ≥ 40 bits that differ every time', () => {
    const codes = new Set(Array.from({ length: 200 }, generateAccessCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    // 31 symbols over 10 positions.
    expect(10 * Math.log2(31)).toBeGreaterThanOrEqual(40);
  });
});
