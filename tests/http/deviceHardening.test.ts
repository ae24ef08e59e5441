import { devicesResponseSchema, pairResponseSchema, snapshotEventSchema } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { problemOf } from '../support/api';
import { openEvents, type SseConnection } from '../support/sseClient';
import { startTestHost, TEST_CODE, type TestHost, type TestHostOptions } from '../support/testHost';

// Issue 31, item 3 and 9: what a view-code holder could do with pairing and forgetting. Over
// real sockets against the reference host (SQLite devices).

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

async function start(options: TestHostOptions = {}): Promise<TestHost> {
  const host = await startTestHost({ viewCode: VIEW_CODE, ...options });
  hosts.push(host);
  return host;
}

const bearer = (secret: string) => ({
  Authorization: `Bearer ${secret}`,
  'Content-Type': 'application/json',
});

function pair(h: TestHost, body: Record<string, string>): Promise<Response> {
  return fetch(`${h.url}/api/pair`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function paired(h: TestHost, body: Record<string, string>) {
  const response = await pair(h, body);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return pairResponseSchema.parse(await response.json());
}

function forget(h: TestHost, secret: string, deviceId: string): Promise<Response> {
  return fetch(`${h.url}/api/devices/forget`, {
    method: 'POST',
    headers: bearer(secret),
    body: JSON.stringify({ deviceId }),
  });
}

/** The media id of the first pending attachment in the stream's snapshot. */
async function mediaIdOf(stream: SseConnection): Promise<string> {
  const first = snapshotEventSchema.parse(JSON.parse((await stream.next()).data));
  return first.snapshot.conversations.pending[0]?.media.id ?? '';
}

const endsWithin = (stream: SseConnection, ms: number) =>
  Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

const mediaStatus = async (h: TestHost, id: string) => (await fetch(`${h.url}/api/media?id=${id}`)).status;

describe('forgetting one device', () => {
  it('ends only that device’s streams and revokes only the media ids issued to it', async () => {
    const h = await start();
    const phone = await paired(h, { code: TEST_CODE, name: 'Phone' });
    const screen = await paired(h, { code: VIEW_CODE, name: 'Screen' });
    const upload = await fetch(`${h.url}/api/upload?name=dot.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_CODE}`, 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(upload.status).toBe(201);
    const phoneStream = await openEvents(h.url, bearer(phone.credential));
    const screenStream = await openEvents(h.url, bearer(screen.credential));
    const codeStream = await openEvents(h.url, bearer(TEST_CODE));
    const phoneMedia = await mediaIdOf(phoneStream);
    const screenMedia = await mediaIdOf(screenStream);
    const codeMedia = await mediaIdOf(codeStream);
    // Each holder has its own id for the same file: one device's ids can go alone.
    expect(new Set([phoneMedia, screenMedia, codeMedia]).size).toBe(3);
    for (const id of [phoneMedia, screenMedia, codeMedia]) expect(await mediaStatus(h, id)).toBe(200);

    // The watching device forgets itself (what a view-code holder can loop on).
    expect((await forget(h, screen.credential, screen.device.id)).status).toBe(200);
    expect(await endsWithin(screenStream, 2000)).toBe(true);
    expect(await mediaStatus(h, screenMedia)).toBe(404);
    // Everyone else keeps streaming with the ids they hold.
    expect(await endsWithin(phoneStream, 500)).toBe(false);
    expect(await endsWithin(codeStream, 10)).toBe(false);
    expect(await mediaStatus(h, phoneMedia)).toBe(200);
    expect(await mediaStatus(h, codeMedia)).toBe(200);
    expect(h.host.bridge.subscriberCount).toBe(2);
    phoneStream.close();
    codeStream.close();
  });

  it('revokes a media id the device fetched with refreshMedia, and no one else’s', async () => {
    const h = await start();
    const phone = await paired(h, { code: TEST_CODE, name: 'Phone' });
    const tablet = await paired(h, { code: TEST_CODE, name: 'Tablet' });
    const upload = await fetch(`${h.url}/api/upload?name=dot.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tablet.credential}`, 'Content-Type': 'image/png' },
      body: PNG,
    });
    const { attachment } = (await upload.json()) as { attachment: { id: string } };
    const refresh = async (secret: string) => {
      const response = await fetch(`${h.url}/api/action`, {
        method: 'POST',
        headers: bearer(secret),
        body: JSON.stringify({ action: 'refreshMedia', attachmentId: attachment.id }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { result: { media: { id: string } } }).result.media.id;
    };
    const tabletMedia = await refresh(tablet.credential);
    const phoneMedia = await refresh(phone.credential);
    expect((await forget(h, phone.credential, tablet.device.id)).status).toBe(200);
    expect(await mediaStatus(h, tabletMedia)).toBe(404);
    expect(await mediaStatus(h, phoneMedia)).toBe(200);
  });
});

describe('how many devices, and what they are called', () => {
  it('pairs at most 50 devices: the next is a 422 that says so, and spends no link', async () => {
    const h = await start({ pairingBurst: 1000 });
    for (let i = 1; i <= 50; i++) await paired(h, { code: TEST_CODE, name: `Phone ${i}` });
    const link = h.host.bridge.pairingToken('control');
    const refused = await pair(h, { token: link, name: 'Phone 51' });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect((await problemOf(refused)).code).toBe('too_many_devices');
    expect(h.host.bridge.devices.list()).toHaveLength(50);
    // Room again: the same link still pairs.
    expect(h.host.bridge.devices.forget(h.host.bridge.devices.list()[0]?.id ?? '')).toBe(true);
    await paired(h, { token: link, name: 'Phone 51' });
  });

  it('refuses a name another device has, whatever its case and spaces, with a 422; the link stays good', async () => {
    const h = await start();
    await paired(h, { code: TEST_CODE, name: 'Pixel 7' });
    const link = h.host.bridge.pairingToken('view');
    for (const name of ['Pixel 7', 'pixel 7', '  PIXEL   7 ', 'Pixel\u00a07', 'Pixel\u200b 7']) {
      const refused = await pair(h, { token: link, name });
      expect(refused.status, name).toBe(422);
      const problem = await problemOf(refused);
      expect(problem.code).toBe('device_name_taken');
      expect(problem.detail).toContain('Pixel 7');
    }
    expect(h.host.bridge.devices.list().map((d) => d.name)).toEqual(['Pixel 7']);
    await paired(h, { token: link, name: 'Pixel 7 (kitchen)' });
  });

  it('reserves “the host” and its name in every catalogue language', async () => {
    const h = await start();
    for (const name of [
      'the host',
      'The Host',
      'host',
      'Host',
      'المضيف',
      'l’hôte',
      "l'hôte",
      'el anfitrión',
      'o host',
      'ホスト',
      '主机',
    ]) {
      const refused = await pair(h, { code: TEST_CODE, name });
      expect(refused.status, name).toBe(422);
      expect((await problemOf(refused)).code, name).toBe('device_name_taken');
    }
    expect(h.host.bridge.devices.list()).toEqual([]);
  });
});

describe('pairing is throttled when it succeeds too', () => {
  it('a view-code holder pairing and forgetting itself in a loop is slowed (429), the code still works', async () => {
    let clock = 1_767_225_600_000;
    const h = await start({ pairingBurst: 3, now: () => clock });
    for (let i = 0; i < 3; i++) {
      const screen = await paired(h, { code: VIEW_CODE, name: 'Loop' });
      expect((await forget(h, screen.credential, screen.device.id)).status).toBe(200);
    }
    const link = h.host.bridge.pairingToken('control');
    const slowed = await pair(h, { token: link, name: 'Loop' });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await problemOf(slowed)).code).toBe('rate_limited');
    // Only pairing waits: the code and paired devices keep working from that address.
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(TEST_CODE) })).status).toBe(200);
    // Later the link (not spent by the refusal) pairs.
    clock += Number(slowed.headers.get('retry-after')) * 1000;
    await paired(h, { token: link, name: 'Loop' });
  });
});

describe('what a watching device sees of the others', () => {
  it('no other device’s last-seen; its own, and everything for a controlling device', async () => {
    let clock = 1_767_225_600_000;
    const h = await start({ now: () => clock });
    const phone = await paired(h, { code: TEST_CODE, name: 'Phone' });
    const screen = await paired(h, { code: VIEW_CODE, name: 'Screen' });
    clock += 5 * 60_000;
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(phone.credential) })).status).toBe(200);
    const list = async (secret: string) =>
      devicesResponseSchema.parse(
        await (await fetch(`${h.url}/api/devices`, { headers: bearer(secret) })).json(),
      );

    const watched = await list(screen.credential);
    const phoneSeen = watched.devices.find((d) => d.id === phone.device.id);
    expect(phoneSeen?.name).toBe('Phone');
    expect(phoneSeen).not.toHaveProperty('lastSeen');
    expect(watched.devices.find((d) => d.id === screen.device.id)?.lastSeen).toBe(clock);
    for (const device of (await list(VIEW_CODE)).devices) expect(device).not.toHaveProperty('lastSeen');

    const controlled = await list(phone.credential);
    expect(controlled.devices.find((d) => d.id === phone.device.id)?.lastSeen).toBe(clock);
    expect(controlled.devices.find((d) => d.id === screen.device.id)?.lastSeen).toBeTypeOf('number');
  });
});
