import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { devicesResponseSchema, pairResponseSchema, snapshotEventSchema } from '@webbridge/contract';
import { type ActionOrigin, createBridge, type HostAdapter } from '@webbridge/server';
import { afterEach, describe, expect, it } from 'vitest';
import { problemOf } from '../support/api';
import { openEvents } from '../support/sseClient';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// Device credentials over real sockets: kept as hashes only, accepted where the code is with
// the device's role, listed and forgotten (streams end, media ids 404), forgotten by rotation.

const VIEW_CODE = 'view-code-4h8w-2n6t';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let hosts: TestHost[] = [];
afterEach(async () => {
  for (const host of hosts) await host.close(true);
  hosts = [];
});

async function start(options: Parameters<typeof startTestHost>[0] = {}): Promise<TestHost> {
  const host = await startTestHost({ viewCode: VIEW_CODE, ...options });
  hosts.push(host);
  return host;
}

const bearer = (secret: string) => ({
  Authorization: `Bearer ${secret}`,
  'Content-Type': 'application/json',
});

async function pairWith(h: TestHost, code: string, name: string) {
  const response = await fetch(`${h.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code, name }),
  });
  expect(response.status).toBe(200);
  return pairResponseSchema.parse(await response.json());
}

const stateStatus = async (h: TestHost, secret: string) =>
  (await fetch(`${h.url}/api/state`, { headers: bearer(secret) })).status;

function forget(h: TestHost, secret: string, deviceId: string): Promise<Response> {
  return fetch(`${h.url}/api/devices/forget`, {
    method: 'POST',
    headers: bearer(secret),
    body: JSON.stringify({ deviceId }),
  });
}

async function endsWithin(stream: Awaited<ReturnType<typeof openEvents>>, timeoutMs: number) {
  return Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
  ]);
}

describe('device credentials at rest', () => {
  it('the SQLite file holds the hash of the secret, never the credential; pairing survives a restart', async () => {
    const h = await start();
    const { credential, device } = await pairWith(h, TEST_CODE, 'Phone');
    const secret = credential.slice(credential.indexOf('.') + 1);
    await h.close();
    const files = ['webbridge.db', 'webbridge.db-wal', 'webbridge.db-shm']
      .map((name) => join(h.dataDir, name))
      .filter((file) => existsSync(file));
    const bytes = Buffer.concat(files.map((file) => readFileSync(file))).toString('latin1');
    expect(bytes).toContain(createHash('sha256').update(secret).digest('hex'));
    expect(bytes).toContain(device.id);
    expect(bytes).not.toContain(secret);
    expect(bytes).not.toContain(credential);

    const again = await start({ dataDir: h.dataDir });
    expect(await stateStatus(again, credential)).toBe(200);
    // A wrong secret for a real id is a wrong code.
    expect(await stateStatus(again, `${device.id}.${'A'.repeat(43)}`)).toBe(401);
  });
});

describe('devices paired under a code the host no longer has', () => {
  it('are forgotten when the host starts with another access code; view devices with another view code', async () => {
    const h = await start();
    const control = await pairWith(h, TEST_CODE, 'Phone');
    const watcher = await pairWith(h, VIEW_CODE, 'Tablet');
    await h.close();
    // The same codes: both stay paired.
    const same = await start({ dataDir: h.dataDir });
    expect(await stateStatus(same, control.credential)).toBe(200);
    expect(await stateStatus(same, watcher.credential)).toBe(200);
    await same.close();
    // Another view code (a new file or environment while the host was down): the watcher goes.
    const newView = await start({ dataDir: h.dataDir, viewCode: 'another-view-code-77' });
    expect(await stateStatus(newView, control.credential)).toBe(200);
    expect(await stateStatus(newView, watcher.credential)).toBe(401);
    await newView.close();
    // Another access code: every device goes, as after `rotate`.
    const newCode = await start({
      dataDir: h.dataDir,
      viewCode: 'another-view-code-77',
      accessCode: 'another-code-4411',
    });
    expect(await stateStatus(newCode, control.credential)).toBe(401);
    expect(await stateStatus(newCode, 'another-code-4411')).toBe(200);
  });
});

describe('listing and forgetting devices', () => {
  it('every new protected route needs a code or credential', async () => {
    const h = await start();
    for (const [method, path] of [
      ['GET', '/api/devices'],
      ['POST', '/api/devices/forget'],
    ] as const) {
      const response = await fetch(`${h.url}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ deviceId: 'x' }) } : {}),
      });
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await problemOf(response)).code).toBe('unauthorized');
    }
  });

  it('lists devices with which one asks; a controlling device forgets another: its stream ends, its credential is a wrong code, media ids 404', async () => {
    const h = await start();
    const phone = await pairWith(h, TEST_CODE, 'Phone');
    const tablet = await pairWith(h, TEST_CODE, 'Tablet');
    const listed = devicesResponseSchema.parse(
      await (await fetch(`${h.url}/api/devices`, { headers: bearer(phone.credential) })).json(),
    );
    expect(listed.current).toBe(phone.device.id);
    expect(listed.devices.map((d) => d.name)).toEqual(['Phone', 'Tablet']);
    expect(JSON.stringify(listed)).not.toContain(tablet.credential.split('.')[1]);

    const upload = await fetch(`${h.url}/api/upload?name=dot.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tablet.credential}`, 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(upload.status).toBe(201);
    const stream = await openEvents(h.url, bearer(tablet.credential));
    const first = snapshotEventSchema.parse(JSON.parse((await stream.next()).data));
    const mediaId = first.snapshot.conversations.pending[0]?.media.id ?? '';
    expect((await fetch(`${h.url}/api/media?id=${mediaId}`)).status).toBe(200);
    expect(h.host.bridge.connections().map((c) => c.deviceId)).toEqual([tablet.device.id]);

    const forgotten: string[] = [];
    h.host.bridge.devices.onForget((device) => forgotten.push(device.name));
    const response = await forget(h, phone.credential, tablet.device.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ forgotten: tablet.device.id });

    expect(await endsWithin(stream, 2000)).toBe(true);
    expect((await fetch(`${h.url}/api/media?id=${mediaId}`)).status).toBe(404);
    expect(await stateStatus(h, tablet.credential)).toBe(401);
    expect(await stateStatus(h, phone.credential)).toBe(200);
    expect(forgotten).toEqual(['Tablet']);
    expect((await forget(h, phone.credential, tablet.device.id)).status).toBe(404);
  });

  it('a view device may forget itself but no other device', async () => {
    const h = await start();
    const phone = await pairWith(h, TEST_CODE, 'Phone');
    const screen = await pairWith(h, VIEW_CODE, 'Screen');
    const other = await forget(h, screen.credential, phone.device.id);
    expect(other.status).toBe(403);
    expect((await problemOf(other)).code).toBe('view_only');
    expect(await stateStatus(h, phone.credential)).toBe(200);
    expect((await forget(h, screen.credential, screen.device.id)).status).toBe(200);
    expect(await stateStatus(h, screen.credential)).toBe(401);
  });

  it('rotating the access code forgets every device; rotating the view code only the view devices', async () => {
    const h = await start();
    const phone = await pairWith(h, TEST_CODE, 'Phone');
    const screen = await pairWith(h, VIEW_CODE, 'Screen');
    const viewLink = h.host.bridge.pairingToken('view');
    const stream = await openEvents(h.url, bearer(phone.credential));
    await stream.next();

    h.host.bridge.setViewCode('view-code-new-8c4v-1z');
    expect(await stateStatus(h, screen.credential)).toBe(401);
    expect(await stateStatus(h, phone.credential)).toBe(200);
    const spentLink = await fetch(`${h.url}/api/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: viewLink, name: 'Late' }),
    });
    expect(spentLink.status).toBe(401);
    expect(h.host.bridge.devices.list().map((d) => d.name)).toEqual(['Phone']);
    const controlLink = h.host.bridge.pairingToken('control');

    h.host.bridge.setAccessCode('rotated-code-5x9p-3k7m');
    expect(await stateStatus(h, phone.credential)).toBe(401);
    expect(await endsWithin(stream, 2000)).toBe(true);
    expect(h.host.bridge.devices.list()).toEqual([]);
    // A link minted under the old code is void too.
    const oldLink = await fetch(`${h.url}/api/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: controlLink, name: 'Late' }),
    });
    expect(oldLink.status).toBe(401);
  });
});

describe('the origin of an action', () => {
  it('names the paired device on both ways an action travels (Node lane and Hono route), none for the code', async () => {
    const h = await start();
    const origins: (ActionOrigin | undefined)[] = [];
    const own = h.host.adapter;
    const adapter: HostAdapter = {
      ...own,
      actions: {
        ...own.actions,
        updateSettings: (action, origin) => {
          origins.push(origin);
          return own.actions.updateSettings(action, origin);
        },
      },
    };
    const bridge = createBridge({
      host: adapter,
      memory: h.host.memory,
      accessCode: 'origin-bridge-code',
      uploadDir: join(h.dataDir, 'uploads'),
      logLevel: 'silent',
    });
    const { urls, port } = await bridge.listen({ port: 0, hostname: '127.0.0.1' });
    try {
      const url = urls[0]!;
      const paired = await fetch(`${url}/api/pair`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: 'origin-bridge-code', name: 'Kitchen tablet' }),
      });
      const { credential, device } = pairResponseSchema.parse(await paired.json());
      const body = JSON.stringify({ action: 'updateSettings', settings: { theme: 'dark' } });
      expect(
        (await fetch(`${url}/api/action`, { method: 'POST', headers: bearer(credential), body })).status,
      ).toBe(200);
      const viaHono = await bridge.app.request('/api/action', {
        method: 'POST',
        headers: { host: `127.0.0.1:${port}`, ...bearer(credential), 'content-length': String(body.length) },
        body,
      });
      expect(viaHono.status).toBe(200);
      expect(
        (await fetch(`${url}/api/action`, { method: 'POST', headers: bearer('origin-bridge-code'), body }))
          .status,
      ).toBe(200);
      const named = { device: { id: device.id, name: 'Kitchen tablet' } };
      expect(origins.map((origin) => origin?.device)).toEqual([named.device, named.device, undefined]);
    } finally {
      await bridge.stop();
    }
  });
});
