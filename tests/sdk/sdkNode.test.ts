import {
  type BridgeClient,
  BridgeClientError,
  createBridgeClient,
  type StoreState,
} from '@webbridge/client-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getState, sendAndWait, waitFor } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { openHostDb } from './hostDb';
import { restartHost } from './restartHost';

/** Resolves with the first store state that satisfies `predicate`. */
function storeReaches(client: BridgeClient, predicate: (s: StoreState) => boolean, timeoutMs = 5000) {
  return waitFor(() => {
    const state = client.store.getState();
    return predicate(state) ? state : undefined;
  }, timeoutMs);
}

/** The reply to the last send is complete and nothing runs. */
const replyDone = (s: StoreState) =>
  s.snapshot?.conversations.run.state === 'idle' &&
  s.snapshot.conversations.messages.at(-1)?.role === 'assistant' &&
  s.snapshot.conversations.messages.at(-1)?.status === 'complete';

describe('the SDK against a real host, in Node', () => {
  let h: TestHost;
  let client: BridgeClient;
  let connection: { close(): void; done: Promise<void> } | undefined;

  beforeEach(async () => {
    h = await startTestHost({ heartbeatMs: 500, echoDelayMs: 2 });
    client = createBridgeClient({ baseUrl: h.url, accessCode: TEST_CODE, retryDelayMs: 50 });
  });
  afterEach(async () => {
    connection?.close();
    await connection?.done;
    connection = undefined;
    await h.close(true);
  });

  const connect = () => {
    connection = client.connect({ heartbeatMs: 500, backoff: { baseMs: 50, maxMs: 200 } });
    return connection;
  };

  it('after fetchState, connects from the state it fetched (Last-Event-ID), with no second snapshot', async () => {
    // What the stream sends and what the client asked for, seen through its fetch.
    let asked: string | null = null;
    let received = '';
    const watching = createBridgeClient({
      baseUrl: h.url,
      accessCode: TEST_CODE,
      retryDelayMs: 50,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!String(input).includes('/api/events') || !response.body) return response;
        asked = new Headers(init?.headers).get('last-event-id');
        const [mine, theirs] = response.body.tee();
        void (async () => {
          const decoder = new TextDecoder();
          for await (const chunk of theirs) received += decoder.decode(chunk, { stream: true });
        })().catch(() => {});
        return new Response(mine, response);
      },
    });
    // The first message names the conversation (a new configuration: a snapshot); later ones do not.
    await sendAndWait(h, 'warm up');
    const fetched = await watching.fetchState();
    connection = watching.connect({ heartbeatMs: 500, backoff: { baseMs: 50, maxMs: 200 } });
    await storeReaches(watching, (s) => s.status === 'live');
    expect(asked).toBe(`${fetched.instanceId}.${watching.store.getState().sync?.seq}`);
    await watching.send('resumed from the fetched state');
    const done = await storeReaches(
      watching,
      (s) =>
        replyDone(s) && s.snapshot?.conversations.messages.at(-2)?.text === 'resumed from the fetched state',
    );
    expect(done.snapshot?.conversations.messages.at(-1)?.status).toBe('complete');
    expect(received).not.toContain('"snapshot"');
    expect(received.length).toBeGreaterThan(0);
  });

  it('goes live with the snapshot, and a streamed reply ends equal to GET /api/state', async () => {
    connect();
    const live = await storeReaches(client, (s) => s.status === 'live' && s.snapshot !== null);
    const truth = await getState(h);
    expect(live.snapshot?.instanceId).toBe(truth.instanceId);
    expect(live.snapshot?.conversationId).toBe(truth.conversationId);

    const seen: string[] = [];
    const unsubscribe = client.store.subscribe((s) => {
      const last = s.snapshot?.conversations.messages.at(-1);
      if (last?.role === 'assistant' && last.status === 'streaming') seen.push(last.text);
    });
    const text = 'one two three four five six seven eight nine ten';
    const outcome = await client.send(text);
    expect(outcome.kind).toBe('done');
    const done = await storeReaches(client, replyDone);
    unsubscribe();

    // It streamed: the store showed the reply growing, not only its final form.
    expect(new Set(seen).size).toBeGreaterThan(2);
    const after = await getState(h);
    expect(done.snapshot?.conversations.messages).toEqual(after.conversations.messages);
    expect(after.conversations.messages.at(-1)?.text).toBe(text);
    expect(done.sync?.seq).toBeGreaterThan(live.sync?.seq ?? Number.POSITIVE_INFINITY);
  });

  it('a send after a host-side conversation switch is session_changed and lands nowhere', async () => {
    connect();
    const live = await storeReaches(client, (s) => s.status === 'live' && s.snapshot !== null);
    const before = live.snapshot!.conversationId;
    const { controller } = h.host;
    // The phone's user opens a new conversation while the browser still shows the old one:
    // the switch is queued on the host's executor in the same tick as the browser's send.
    const switched = controller.executor.run(() => controller.conversations.newConversation());
    const text = `misdirected? ${Math.random()}`;
    const outcome = await client.send(text);
    const { conversationId: created } = await switched;
    expect(created).not.toBe(before);

    expect(outcome.kind).toBe('session_changed');
    if (outcome.kind !== 'session_changed') return;
    expect(outcome.destination.conversationId).toBe(created);
    expect(outcome.error.status).toBe(409);
    expect(outcome.error.code).toBe('session_mismatch');
    // The store shows where a send would land now.
    expect(client.store.getState().snapshot?.conversationId).toBe(created);

    const db = openHostDb(h.dataDir);
    try {
      expect(db.conversationsWithUserText(text)).toEqual([]);
    } finally {
      db.close();
    }
    for (const conversationId of [before, created]) {
      await controller.executor.run(() => controller.conversations.selectConversation(conversationId));
      const state = await getState(h);
      expect(state.conversations.messages.map((m) => m.text)).not.toContain(text);
    }
  });

  it('uploads with progress; the attachment becomes pending in the store and goes out with a send', async () => {
    connect();
    await storeReaches(client, (s) => s.status === 'live');
    const bytes = new TextEncoder().encode('a small file\n'.repeat(1000));
    const progress: [number, number][] = [];
    const attachment = await client.upload(new Blob([bytes], { type: 'text/plain' }), 'notes.txt', {
      onProgress: (loaded, total) => progress.push([loaded, total]),
    });
    expect(attachment).toMatchObject({ name: 'notes.txt', type: 'text/plain', size: bytes.length });
    expect(progress.at(-1)).toEqual([bytes.length, bytes.length]);
    expect(progress.every(([loaded, total]) => loaded <= total)).toBe(true);

    const pending = await storeReaches(client, (s) =>
      s.snapshot ? s.snapshot.conversations.pending.some((p) => p.id === attachment.id) : false,
    );
    const media = pending.snapshot?.conversations.pending.find((p) => p.id === attachment.id)?.media;
    expect(media).toBeDefined();
    const file = await fetch(client.mediaUrl(media!));
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes);

    expect((await client.send('with a file', [attachment.id])).kind).toBe('done');
    const done = await storeReaches(client, replyDone);
    const user = done.snapshot?.conversations.messages.at(-2);
    expect(user?.attachments.map((a) => a.id)).toEqual([attachment.id]);
    expect(done.snapshot?.conversations.pending).toEqual([]);
  });

  it('a wrong access code makes the status unauthorized and stops retrying', async () => {
    const wrong = createBridgeClient({ baseUrl: h.url, accessCode: 'not-the-code-1234' });
    const wrongConnection = wrong.connect({ backoff: { baseMs: 10, maxMs: 20 } });
    await wrongConnection.done;
    expect(wrong.store.getState().status).toBe('unauthorized');
    expect(wrong.store.getState().snapshot).toBeNull();
    const error = await wrong.fetchState().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeClientError);
    expect((error as BridgeClientError).code).toBe('unauthorized');
    expect((error as BridgeClientError).status).toBe(401);
  });

  it('reconnects by itself after a host restart on the same port and takes the new run’s snapshot', async () => {
    connect();
    const live = await storeReaches(client, (s) => s.status === 'live' && s.snapshot !== null);
    const oldInstance = live.snapshot!.instanceId;
    expect((await client.send('before the restart')).kind).toBe('done');
    await storeReaches(client, replyDone);

    const statuses: string[] = [];
    const unsubscribe = client.store.subscribe((s, previous) => {
      if (s.status !== previous.status) statuses.push(s.status);
    });
    h = await restartHost(h);
    const back = await storeReaches(
      client,
      (s) => s.status === 'live' && s.snapshot?.instanceId !== oldInstance,
      10_000,
    );
    unsubscribe();
    expect(statuses).toContain('reconnecting');
    const truth = await getState(h);
    expect(back.snapshot?.instanceId).toBe(truth.instanceId);
    expect(back.snapshot?.instanceId).not.toBe(oldInstance);
    // The data survived the restart and the new run's state is what the client shows.
    expect(back.snapshot?.conversations.messages).toEqual(truth.conversations.messages);
    expect(back.snapshot?.conversations.messages.map((m) => m.text)).toContain('before the restart');
    // A send with the new identity lands.
    expect((await client.send('after the restart')).kind).toBe('done');
  });
});
