import { ACCESS_HEADER, snapshotEventSchema } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { problemOf } from '../support/api';
import { openEvents } from '../support/sseClient';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

// Rotating the access code or the view code, and what a view code may do. Plain loopback HTTP:
// the codes behave the same over TLS (tests/http/https.test.ts runs the matrix there).

const VIEW_CODE = 'view-code-4h8w-2n6t';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let h: TestHost | undefined;
afterEach(async () => {
  await h?.close(true);
  h = undefined;
});

const bearer = (code: string) => ({ Authorization: `Bearer ${code}` });

/** GET /api/state with `code`; the snapshot's pending media ids, or the status when refused. */
async function mediaIds(host: TestHost, code: string): Promise<string[]> {
  const response = await fetch(`${host.url}/api/state`, { headers: bearer(code) });
  if (response.status !== 200) throw new Error(`GET /api/state: ${response.status}`);
  const state = (await response.json()) as { conversations: { pending: { media: { id: string } }[] } };
  return state.conversations.pending.map((a) => a.media.id);
}

async function upload(host: TestHost): Promise<void> {
  const response = await fetch(`${host.url}/api/upload?name=dot.png`, {
    method: 'POST',
    headers: { ...bearer(TEST_CODE), 'Content-Type': 'image/png' },
    body: PNG,
  });
  expect(response.status).toBe(201);
}

const mediaStatus = async (host: TestHost, id: string) =>
  (await fetch(`${host.url}/api/media?id=${id}`)).status;

/** Reads a stream until the server ends it; true when it did within `timeoutMs`. */
async function endsWithin(
  stream: Awaited<ReturnType<typeof openEvents>>,
  timeoutMs: number,
): Promise<boolean> {
  return Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
  ]);
}

describe('rotating the access code', () => {
  it('closes the streams opened with the old code and revokes every media id issued before', async () => {
    h = await startTestHost({ viewCode: VIEW_CODE });
    await upload(h);
    const [before] = await mediaIds(h, TEST_CODE);
    const [viewBefore] = await mediaIds(h, VIEW_CODE);
    const stream = await openEvents(h.url, bearer(TEST_CODE));
    const first = snapshotEventSchema.parse(JSON.parse((await stream.next()).data));
    const streamed = first.snapshot.conversations.pending[0]?.media.id;
    for (const id of [before, viewBefore, streamed]) expect(await mediaStatus(h, id!)).toBe(200);

    h.host.bridge.setAccessCode('rotated-code-5x9p-3k7m');

    expect(await endsWithin(stream, 2000)).toBe(true);
    // Every id handed out before, whichever code or route it came through: the same 404 as unknown.
    for (const id of [before, viewBefore, streamed]) expect(await mediaStatus(h, id!)).toBe(404);
    const old = await fetch(`${h.url}/api/state`, { headers: bearer(TEST_CODE) });
    expect(old.status).toBe(401);

    // A fresh snapshot with the new code carries a new id, which works.
    const fresh = await openEvents(h.url, bearer('rotated-code-5x9p-3k7m'));
    try {
      const snapshot = snapshotEventSchema.parse(JSON.parse((await fresh.next()).data));
      const renewed = snapshot.snapshot.conversations.pending[0]?.media.id;
      expect(renewed).toBeDefined();
      expect(renewed).not.toBe(streamed);
      expect(await mediaStatus(h, renewed!)).toBe(200);
    } finally {
      fresh.close();
    }
    // The view code is not affected by a rotation of the access code.
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(VIEW_CODE) })).status).toBe(200);
  });

  it('a client resuming with a Last-Event-ID from before the rotation starts over with a snapshot', async () => {
    h = await startTestHost();
    await upload(h);
    const stream = await openEvents(h.url, bearer(TEST_CODE));
    const first = await stream.next();
    const { snapshot } = snapshotEventSchema.parse(JSON.parse(first.data));
    stream.close();
    h.host.bridge.setAccessCode('rotated-code-5x9p-3k7m');
    const resumed = await openEvents(h.url, {
      ...bearer('rotated-code-5x9p-3k7m'),
      'Last-Event-ID': `${snapshot.instanceId}.${first.id}`,
    });
    try {
      const event = await resumed.until((e) => e.event !== 'heartbeat');
      const data = snapshotEventSchema.parse(JSON.parse(event.data));
      expect(data.kind).toBe('snapshot');
      expect(await mediaStatus(h, data.snapshot.conversations.pending[0]!.media.id)).toBe(200);
    } finally {
      resumed.close();
    }
  });
});

describe('rotating the view code', () => {
  it('cuts the view streams; the old view code is refused, the new one watches, media ids are revoked', async () => {
    h = await startTestHost({ viewCode: VIEW_CODE });
    await upload(h);
    const watching = await openEvents(h.url, bearer(VIEW_CODE));
    const first = snapshotEventSchema.parse(JSON.parse((await watching.next()).data));
    const id = first.snapshot.conversations.pending[0]!.media.id;
    expect(await mediaStatus(h, id)).toBe(200);

    h.host.bridge.setViewCode('new-view-code-8r2w');

    expect(await endsWithin(watching, 2000)).toBe(true);
    expect(await mediaStatus(h, id)).toBe(404);
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(VIEW_CODE) })).status).toBe(401);
    const renewed = await fetch(`${h.url}/api/state`, { headers: bearer('new-view-code-8r2w') });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get(ACCESS_HEADER)).toBe('view');
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(TEST_CODE) })).status).toBe(200);

    // Removed: it opens nothing any more.
    h.host.bridge.setViewCode(undefined);
    expect((await fetch(`${h.url}/api/state`, { headers: bearer('new-view-code-8r2w') })).status).toBe(401);
  });
});

describe('the view code on every protected route', () => {
  const routes = [
    { method: 'GET', path: '/api/state' },
    { method: 'GET', path: '/api/events' },
    { method: 'POST', path: '/api/action' },
    { method: 'POST', path: '/api/upload?name=a.txt' },
  ] as const;
  const send = (host: TestHost, route: (typeof routes)[number], code: string) =>
    fetch(`${host.url}${route.path}`, {
      method: route.method,
      headers: {
        ...bearer(code),
        'Content-Type': route.path === '/api/action' ? 'application/json' : 'text/plain',
      },
      ...(route.method === 'POST'
        ? { body: route.path === '/api/action' ? JSON.stringify({ action: 'newConversation' }) : 'hello' }
        : {}),
    });

  it('view: reads state and events, 403 view_only on action and upload; main: everything; wrong: 401', async () => {
    h = await startTestHost({ viewCode: VIEW_CODE });
    const host = h;
    const conversationsBefore = (await (await send(host, routes[0], TEST_CODE)).json()) as {
      conversations: { list: unknown[] };
    };
    for (const route of routes) {
      const label = `${route.method} ${route.path}`;
      const view = await send(host, route, VIEW_CODE);
      if (route.method === 'GET') {
        expect(view.status, label).toBe(200);
        if (route.path === '/api/state') expect(view.headers.get(ACCESS_HEADER)).toBe('view');
        await view.body?.cancel();
      } else {
        expect(view.status, label).toBe(403);
        const problem = await problemOf(view);
        expect(problem.code).toBe('view_only');
        expect(view.headers.get(ACCESS_HEADER)).toBe('view');
      }
      const main = await send(host, route, TEST_CODE);
      expect(main.status, label).toBe(route.path.startsWith('/api/upload') ? 201 : 200);
      if (route.path !== '/api/events') expect(main.headers.get(ACCESS_HEADER)).toBe('control');
      await main.body?.cancel();
      const wrong = await send(host, route, 'view-code-4h8w-2n6u');
      expect(wrong.status, label).toBe(401);
      expect((await problemOf(wrong)).code).toBe('unauthorized');
    }
    // The refused view action did nothing: only the main code's newConversation is there.
    const after = (await (await send(host, routes[0], TEST_CODE)).json()) as {
      conversations: { list: unknown[] };
    };
    expect(after.conversations.list.length).toBe(conversationsBefore.conversations.list.length + 1);
    // A view upload left no attachment: only the main code's is pending.
    const pending = (await mediaIds(host, TEST_CODE)).length;
    expect(pending).toBe(1);
  });

  it('the view code is throttled like the main code: guesses lock it out too (429, Retry-After)', async () => {
    h = await startTestHost({ viewCode: VIEW_CODE, freeAuthFailures: 2, authLockoutMs: 1500 });
    for (let i = 0; i < 3; i++) {
      const guess = await fetch(`${h.url}/api/state`, { headers: bearer(`view-guess-${i}-xxxx`) });
      expect(guess.status).toBe(401);
    }
    const locked = await fetch(`${h.url}/api/state`, { headers: bearer(VIEW_CODE) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await problemOf(locked)).code).toBe('rate_limited');
    const lockedEvents = await fetch(`${h.url}/api/events`, { headers: bearer(VIEW_CODE) });
    expect(lockedEvents.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const open = await fetch(`${h.url}/api/state`, { headers: bearer(VIEW_CODE) });
    expect(open.status).toBe(200);
    expect(open.headers.get(ACCESS_HEADER)).toBe('view');
  });

  it('a view code that works does not clear the count of wrong guesses at the access code', async () => {
    h = await startTestHost({ viewCode: VIEW_CODE, freeAuthFailures: 2, authLockoutMs: 1500 });
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${h.url}/api/state`, { headers: bearer(`guess-${i}-xxxxxxxx`) })).status).toBe(
        401,
      );
    }
    // The watcher's own code between guesses: before, it reset the count, so guesses never locked.
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(VIEW_CODE) })).status).toBe(200);
    expect((await fetch(`${h.url}/api/state`, { headers: bearer('guess-2-xxxxxxxx') })).status).toBe(401);
    expect((await fetch(`${h.url}/api/state`, { headers: bearer(VIEW_CODE) })).status).toBe(429);
  });
});
