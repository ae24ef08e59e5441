import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHost, startHost } from '../startHost';
import { tempDir, waitForState } from '../testing/testController';
import { connectUrl, terminalQr } from './connectionBanner';
import { startConsole } from './startConsole';

let hosts: RunningHost[] = [];
afterEach(async () => {
  for (const host of hosts) await host.close();
  hosts = [];
});

async function setup(dataDir = tempDir()) {
  const host = await startHost({ dataDir, accessCode: 'first-code', staticDir: null, echoDelayMs: 1 });
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
    setViewCode: (next) => host.bridge.setViewCode(next),
    quit: () => quits++,
    input,
    output,
  });
  const type = async (line: string, expected: RegExp) => {
    input.write(`${line}\n`);
    for (let i = 0; i < 100 && !expected.test(text); i++) await new Promise((r) => setTimeout(r, 10));
    expect(text).toMatch(expected);
  };
  const clear = () => {
    text = '';
  };
  return { host, type, close, clear, output: () => text, code: () => code, quits: () => quits, dataDir };
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

  it('shows a one-time pairing link (QR and text) that never holds the code, and a fresh one each time', async () => {
    const { host, type, clear, output, code, close } = await setup();
    await type('qr', /Scan to pair a device[\s\S]*#pair=\S+/);
    await new Promise((r) => setTimeout(r, 20));
    const first = /#pair=(\S+)/.exec(output())?.[1] ?? '';
    expect(output()).toContain(await terminalQr(connectUrl(host.url, first)));
    expect(output()).toContain(`  ${host.url}/#pair=${first}`);
    expect(output()).not.toContain('first-code');
    expect(connectUrl(host.url, 'a b')).toBe(`${host.url}/#pair=a%20b`);
    // The printed token pairs a device, once.
    const pair = (token: string) =>
      fetch(`${host.url}/api/pair`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, name: 'Console phone' }),
      });
    expect((await pair(first)).status).toBe(200);
    expect((await pair(first)).status).toBe(401);
    clear();
    await type('rotate', /New access code: \S+[\s\S]*Forgot 1 paired device[\s\S]*#pair=\S+/);
    await new Promise((r) => setTimeout(r, 20));
    const second = /#pair=(\S+)/.exec(output())?.[1] ?? '';
    expect(second).not.toBe(first);
    // The new code is printed once, as the code; no link carries it.
    expect(output().split(code())).toHaveLength(2);
    expect(second).not.toContain(code());
    expect(output()).toContain(await terminalQr(connectUrl(host.url, second)));
    close();
  });

  it('view prints a pairing link for a watching device; view off forgets the watching devices', async () => {
    const { host, type, output, close } = await setup();
    await type('view', /New view code[\s\S]*Scan to pair a watching device[\s\S]*#pair=\S+/);
    const token = /#pair=(\S+)/.exec(output())?.[1] ?? '';
    const response = await fetch(`${host.url}/api/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, name: 'Wall screen' }),
    });
    expect(response.status).toBe(200);
    expect(host.bridge.devices.list().map((d) => [d.name, d.role])).toEqual([['Wall screen', 'view']]);
    await type('view off', /watching devices forgotten/);
    expect(host.bridge.devices.list()).toEqual([]);
    close();
  });

  it('lists paired devices and forgets one by number', async () => {
    const { host, type, clear, close } = await setup();
    await type('devices', /No paired devices/);
    for (const name of ['Phone A', 'Tablet B']) {
      const response = await fetch(`${host.url}/api/pair`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: 'first-code', name }),
      });
      expect(response.status).toBe(200);
    }
    await type('devices', /1\. Phone A \(control\) paired [\s\S]*2\. Tablet B \(control\)/);
    clear();
    await type('forget 1', /Forgot Phone A/);
    expect(host.bridge.devices.list().map((d) => d.name)).toEqual(['Tablet B']);
    await type('forget 7', /No such device/);
    close();
  });

  it('lists and decides approvals as the host user', async () => {
    const { host, type, dataDir, close } = await setup();
    const controller = host.controller;
    await type('approvals', /Nothing waits for approval/);
    for (const name of ['yes.txt', 'no.txt']) {
      await controller.executor.run(() =>
        controller.messages.send(`/tool write_file ${JSON.stringify({ path: name, content: 'x' })}`),
      );
      await waitForState(controller, (s) => s.approvals.length === 1);
      await type('approvals', new RegExp(`1\\. Write 1 bytes to ${name.replace('.', '\\.')}`));
      await type(
        name === 'yes.txt' ? 'allow 1' : 'deny 1',
        new RegExp(`(Allowed|Denied): Write 1 bytes to ${name}`),
      );
      expect(controller.readState().approvals).toEqual([]);
    }
    expect(fs.existsSync(path.join(dataDir, 'workspace/yes.txt'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'workspace/no.txt'))).toBe(false);
    await type('allow 1', /No such approval/);
    close();
  });

  it('authorises a root only from the host side, remembers it, and makes projects on it', async () => {
    const dataDir = tempDir();
    const folder = fs.realpathSync(tempDir('webbridge-root-'));
    const first = await setup(dataDir);
    const uri = `file://${folder}`;
    expect(first.host.adapter.authoriseWorkspace(uri)).toBeUndefined();
    await first.type('add-root relative/path', /Failed: A workspace root must exist/);
    await first.type(`add-root ${folder}`, /Authorised: /);
    expect(first.host.adapter.authoriseWorkspace(uri)).toBe(uri);
    expect(first.host.controller.readState().projects.roots.map((r) => r.uri)).toContain(uri);
    await first.type('roots', new RegExp(uri));
    const before = first.host.controller.readState().sessionRevision;
    await first.type(`new-project ${folder} Site work`, /Created and switched to project: Site work/);
    const state = first.host.controller.readState();
    expect(state.sessionRevision).toBeGreaterThan(before);
    expect(state.projects.list.find((p) => p.id === state.projectId)?.workspace.uri).toBe(uri);
    await first.type('projects', /1\. Default[\s\S]*\* 2\. Site work/);
    await first.type('project 1', /Switched to project: Default/);
    await first.type('project 7', /No such project/);
    first.close();
    await first.host.close();

    const second = await setup(dataDir);
    expect(second.host.adapter.authoriseWorkspace(uri)).toBe(uri);
    second.close();
  });

  it('lists the connected browsers with address and user agent', async () => {
    const { host, type, close } = await setup();
    await type('browsers', /0 browsers connected/);
    const abort = new AbortController();
    const response = await fetch(`${host.url}/api/events`, {
      headers: { Authorization: 'Bearer first-code', 'User-Agent': 'TestPhone/1.0' },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    await type('browsers', /1 browser connected\.\n\s+127\.0\.0\.1\s+since .+TestPhone\/1\.0/);
    abort.abort();
    close();
  });
});
