import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHost, startHost } from '../startHost';
import { tempDir } from '../testing/testController';
import { startConsole } from './startConsole';

let hosts: RunningHost[] = [];
afterEach(async () => {
  for (const host of hosts) await host.close();
  hosts = [];
});

async function setup() {
  const host = await startHost({ dataDir: tempDir(), accessCode: 'first-code', staticDir: null });
  hosts.push(host);
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  let code = 'first-code';
  let quits = 0;
  const close = startConsole({
    host,
    code: () => code,
    setCode: (next) => {
      code = next;
      host.bridge.setAccessCode(next);
    },
    quit: () => quits++,
    input,
    output,
  });
  const type = async (line: string, expected: RegExp) => {
    input.write(`${line}\n`);
    for (let i = 0; i < 100 && !expected.test(text); i++) await new Promise((r) => setTimeout(r, 10));
    expect(text).toMatch(expected);
  };
  return { host, type, close, code: () => code, quits: () => quits };
}

describe('console', () => {
  it('switches conversations through the executor, as the host user would', async () => {
    const { host, type, close } = await setup();
    const first = host.controller.readState().conversationId;
    await type('new', /Started a new conversation/);
    expect(host.controller.readState().conversationId).not.toBe(first);
    const revision = host.controller.readState().sessionRevision;
    await type('convs', /\* 1\. New conversation[\s\S]*2\. New conversation/);
    await type('switch 2', /Switched to/);
    expect(host.controller.readState().conversationId).toBe(first);
    expect(host.controller.readState().sessionRevision).toBe(revision + 1);
    await type('switch 9', /No such conversation/);
    close();
  });

  it('rotates the access code so the old one stops working', async () => {
    const { host, type, code, close, quits } = await setup();
    await type('rotate', /New access code: \S+/);
    expect(code()).not.toBe('first-code');
    const old = await fetch(`${host.url}/api/state`, { headers: { Authorization: 'Bearer first-code' } });
    expect(old.status).toBe(401);
    const fresh = await fetch(`${host.url}/api/state`, { headers: { Authorization: `Bearer ${code()}` } });
    expect(fresh.status).toBe(200);
    await type('help', /rotate/);
    await type('quit', /rotate/);
    for (let i = 0; i < 100 && quits() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(quits()).toBe(1);
    close();
  });
});
