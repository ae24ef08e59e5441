import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROBLEM_CONTENT_TYPE, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFuzzedHost } from '../fuzz/fuzzHost';
import { rawRequest } from '../support/rawHttp';

// Found by the contract fuzzer (tests/fuzz, once tolerated in its list of known defects): a
// refusal outside /api/* (a host that serves no certificate authority answering /ca.crt, a
// path that normalises out of /api/) came without the protocol header, which DESIGN.md asks
// of every refusal.
describe('a refusal outside /api/*', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-refusal-'));
  let host: Awaited<ReturnType<typeof startFuzzedHost>>;
  beforeAll(async () => {
    host = await startFuzzedHost(dataDir, []);
  });
  afterAll(async () => {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('carries the protocol header, whatever path and method', async () => {
    const port = host.address.port;
    const targets = [
      'GET /ca.crt',
      'HEAD /ca.crt',
      'GET /API/STATE',
      'GET /api/%2e%2e/state',
      'POST /nope',
      'DELETE /',
      'GET /index.html',
    ];
    for (const target of targets) {
      const answer = await rawRequest(port, [
        `${target} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Connection: close',
      ]);
      expect({ target, status: answer.status, type: answer.headers['content-type'] }).toEqual({
        target,
        status: 404,
        type: PROBLEM_CONTENT_TYPE,
      });
      expect({ target, protocol: answer.headers[PROTOCOL_HEADER.toLowerCase()] }).toEqual({
        target,
        protocol: String(PROTOCOL_VERSION),
      });
    }
  });
});
