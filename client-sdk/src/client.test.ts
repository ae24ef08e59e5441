import { PROBLEM_CONTENT_TYPE, type Problem } from '@webbridge/contract';
import { aConversationSummary } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { BridgeClientError } from './BridgeClientError';
import { createBridgeClient } from './client';
import { createActionId } from './createActionId';
import { createStore } from './store';
import { jsonResponse, type Responder, scriptedFetch, waitFor } from './testing/fakeFetch';
import { message, snapshot } from './testing/fixtures';

const seen = snapshot([message('a')]);

function problem(status: number, code: Problem['code'], extra: Partial<Problem> = {}): Response {
  return jsonResponse(
    status,
    {
      type: `https://webbridge.dev/problems/${code}`,
      title: code,
      status,
      detail: `because ${code}`,
      code,
      ...extra,
    },
    PROBLEM_CONTENT_TYPE,
  );
}

function setup(responders: Responder[], withState = true, retries?: number) {
  const { fetch, requests } = scriptedFetch(responders);
  const store = createStore();
  if (withState) store.replaceSnapshot(seen);
  let ids = 0;
  const client = createBridgeClient({
    baseUrl: 'http://bridge.test',
    accessCode: 'k7-plum',
    fetch,
    store,
    retryDelayMs: 1,
    ...(retries === undefined ? {} : { retries }),
    createActionId: () => `action-id-${++ids}`,
  });
  const bodies = () => requests.map((r) => JSON.parse(String(r.body)) as Record<string, unknown>);
  return { client, requests, store, bodies };
}

describe('createBridgeClient: actions', () => {
  it('posts the action with Bearer and an actionId, and returns the typed result', async () => {
    const { client, requests, bodies } = setup([
      () => jsonResponse(200, { action: 'selectProject', result: { projectId: 'p2' } }),
    ]);
    const result = await client.action({ action: 'selectProject', projectId: 'p2' });
    expect(result).toEqual({ projectId: 'p2' });
    expect(requests[0]?.url).toBe('http://bridge.test/api/action');
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer k7-plum');
    expect(requests[0]?.headers.get('content-type')).toContain('application/json');
    expect(bodies()[0]).toEqual({ action: 'selectProject', projectId: 'p2', actionId: 'action-id-1' });
  });

  it('uses crypto.randomUUID for actionIds by default', async () => {
    const { fetch, requests } = scriptedFetch([
      () => jsonResponse(200, { action: 'stop', result: { stopped: true } }),
    ]);
    const client = createBridgeClient({ baseUrl: 'http://bridge.test', accessCode: 'x', fetch });
    await client.action({ action: 'stop', sessionRevision: 1, conversationId: 'c1', projectId: 'p1' });
    expect(JSON.parse(String(requests[0]?.body)).actionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retries a network failure with the same actionId, and only then', async () => {
    const { client, bodies } = setup([
      () => Promise.reject(new TypeError('fetch failed')),
      () =>
        jsonResponse(200, { action: 'send', result: { conversationId: 'c1', messageId: 'm', replyId: 'r' } }),
    ]);
    const outcome = await client.send('hello');
    expect(outcome).toEqual({ kind: 'done', result: { conversationId: 'c1', messageId: 'm', replyId: 'r' } });
    const [firstTry, secondTry] = bodies();
    expect(firstTry?.actionId).toBe('action-id-1');
    expect(secondTry).toEqual(firstTry);
  });

  it('gives up after the configured retries with a network error', async () => {
    const { client, requests, store } = setup([() => Promise.reject(new TypeError('fetch failed'))], true, 2);
    await expect(client.action({ action: 'selectProject', projectId: 'p2' })).rejects.toMatchObject({
      code: 'network',
      status: 0,
    });
    expect(requests).toHaveLength(3);
    expect(store.getState().pendingActions).toEqual([]);
  });

  it('keeps an action that cannot reach the host pending, and sends it again at once when the stream is live', async () => {
    let reachable = false;
    const { fetch, requests } = scriptedFetch([
      () =>
        reachable
          ? jsonResponse(200, {
              action: 'send',
              result: { conversationId: 'c1', messageId: 'm', replyId: 'r' },
            })
          : Promise.reject(new TypeError('fetch failed')),
    ]);
    const store = createStore();
    store.replaceSnapshot(seen);
    store.setStatus('reconnecting');
    // A backoff far longer than the test: only the stream coming back can wake the retry.
    const client = createBridgeClient({
      baseUrl: 'http://bridge.test',
      accessCode: 'k',
      fetch,
      store,
      retryDelayMs: 60_000,
    });
    const sent = client.send('while away');
    await waitFor(() => store.getState().pendingActions.length === 1);
    const [pending] = store.getState().pendingActions;
    expect(pending?.action).toMatchObject({ action: 'send', text: 'while away' });
    expect(pending?.attempts).toBe(1);
    reachable = true;
    store.setStatus('live');
    expect((await sent).kind).toBe('done');
    expect(store.getState().pendingActions).toEqual([]);
    const ids = requests.map((r) => JSON.parse(String(r.body)).actionId);
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
  });

  it('never retries past the window counted from the first send, however long that send hung', async () => {
    // The first POST hangs past the whole window before it fails: the host may by then have
    // forgotten its actionId (remembered from receipt), so a retry could apply it twice.
    const { fetch, requests } = scriptedFetch([
      () => new Promise((_resolve, reject) => setTimeout(() => reject(new TypeError('fetch failed')), 60)),
    ]);
    const client = createBridgeClient({
      baseUrl: 'http://bridge.test',
      accessCode: 'k',
      fetch,
      retryDelayMs: 1,
      pendingForMs: 50,
    });
    await expect(client.action({ action: 'selectProject', projectId: 'p2' })).rejects.toMatchObject({
      code: 'network',
    });
    expect(requests).toHaveLength(1);
  });

  it('a refusal is not retried and a pending action can be abandoned through its signal', async () => {
    const { client, store, requests } = setup([
      () => Promise.reject(new TypeError('fetch failed')),
      () => problem(422, 'not_applicable'),
    ]);
    await expect(
      client.action({ action: 'approve', approvalId: 'x', decision: 'allow' }),
    ).rejects.toMatchObject({
      code: 'not_applicable',
    });
    expect(requests).toHaveLength(2);
    expect(store.getState().pendingActions).toEqual([]);

    const abort = new AbortController();
    const stuck = setup([() => Promise.reject(new TypeError('fetch failed'))]);
    const outcome = stuck.client.action(
      { action: 'selectProject', projectId: 'p2' },
      { signal: abort.signal },
    );
    await waitFor(() => stuck.store.getState().pendingActions.length === 1);
    abort.abort();
    await expect(outcome).rejects.toMatchObject({ code: 'aborted' });
    expect(stuck.store.getState().pendingActions).toEqual([]);
  });

  it('throws a BridgeClientError carrying the problem', async () => {
    const { client, requests } = setup([() => problem(422, 'not_applicable')]);
    const error = await client
      .action({ action: 'approve', approvalId: 'x', decision: 'allow' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(BridgeClientError);
    expect(error).toMatchObject({ code: 'not_applicable', status: 422, detail: 'because not_applicable' });
    expect((error as BridgeClientError).problem?.code).toBe('not_applicable');
    expect(requests).toHaveLength(1);
  });

  it('refuses an answer the contract does not allow', async () => {
    const { client } = setup([() => jsonResponse(200, { action: 'stop', result: { stopped: 'yes' } })]);
    await expect(client.stop()).rejects.toMatchObject({ code: 'bad_response' });
  });
});

describe('createBridgeClient: fetchState', () => {
  it('takes a valid state as sent, and gives the store that state', async () => {
    const state = snapshot([message('a'), message('b', 'text', { parentId: 'a', model: 'echo' })]);
    const { client, store } = setup([() => jsonResponse(200, state)], false);
    const fetched = await client.fetchState();
    expect(fetched).toStrictEqual(state);
    expect(store.getState().snapshot).toBe(fetched);
  });

  it('drops keys the contract does not name, deep in the state, as zod does', async () => {
    const state = snapshot([message('a')]);
    const sent = {
      ...state,
      extra: 1,
      conversations: { ...state.conversations, messages: [{ ...message('a'), unknownField: { x: 1 } }] },
    };
    const { client, store } = setup([() => jsonResponse(200, sent)], false);
    await expect(client.fetchState()).resolves.toStrictEqual(state);
    expect(store.getState().snapshot).toStrictEqual(state);
  });

  it('refuses a state the contract does not allow with bad_response, and keeps the one it had', async () => {
    const broken = [
      { ...seen, sessionRevision: -1 },
      { ...seen, settings: { ...seen.settings, theme: 'neon' } },
      {
        ...seen,
        conversations: { ...seen.conversations, messages: [{ ...message('x'), createdAt: 'now' }] },
      },
      { ...seen, protocol: 'other' },
    ];
    for (const state of broken) {
      const { client, store } = setup([() => jsonResponse(200, state)]);
      await expect(client.fetchState()).rejects.toMatchObject({ code: 'bad_response', status: 200 });
      expect(store.getState().snapshot).toBe(seen);
    }
    const { protocol: _missing, ...withoutProtocol } = seen;
    const { client } = setup([() => jsonResponse(200, withoutProtocol)]);
    await expect(client.fetchState()).rejects.toMatchObject({ code: 'bad_response' });
  });
});

describe('createBridgeClient: session-sensitive actions', () => {
  it('takes the identity from the state the user is looking at now', async () => {
    const { client, store, bodies } = setup([
      () => jsonResponse(200, { action: 'stop', result: { stopped: true } }),
    ]);
    store.replaceSnapshot(snapshot([], { conversationId: 'c9', sessionRevision: 7, projectId: 'p4' }));
    await client.stop();
    expect(bodies()[0]).toMatchObject({
      action: 'stop',
      conversationId: 'c9',
      sessionRevision: 7,
      projectId: 'p4',
      instanceId: 'instance-1',
    });
  });

  it('on 409 refetches the state, shows it, tells where a send would land, and never re-sends', async () => {
    const current = { instanceId: 'instance-1', sessionRevision: 2, conversationId: 'c2', projectId: 'p1' };
    const fresh = snapshot([], {
      ...current,
      conversations: {
        ...seen.conversations,
        list: [...seen.conversations.list, aConversationSummary({ id: 'c2', title: 'Second', createdAt: 2 })],
        messages: [],
      },
    });
    const { client, store, requests } = setup([
      () => problem(409, 'session_mismatch', { current }),
      () => jsonResponse(200, fresh),
    ]);
    const outcome = await client.send('hello', ['att1']);
    expect(outcome.kind).toBe('session_changed');
    if (outcome.kind !== 'session_changed') return;
    expect(outcome.destination).toEqual({ ...current, title: 'Second' });
    expect(outcome.error.code).toBe('session_mismatch');
    expect(outcome.error.current).toEqual(current);
    expect(store.getState().snapshot).toEqual(fresh);
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'POST /api/action',
      'GET /api/state',
    ]);
    expect(JSON.parse(String(requests[0]?.body))).toMatchObject({ text: 'hello', attachmentIds: ['att1'] });
  });

  it('a confirmed send carries the identity of the destination confirmed, not the newer one in the store', async () => {
    const { client, store, bodies } = setup([
      () =>
        jsonResponse(200, { action: 'send', result: { conversationId: 'c2', messageId: 'm', replyId: 'r' } }),
    ]);
    const confirmed = {
      instanceId: 'instance-1',
      sessionRevision: 2,
      conversationId: 'c2',
      projectId: 'p1',
      title: 'Second',
    };
    // The stream has moved the store on since the person was asked.
    store.replaceSnapshot(snapshot([], { conversationId: 'c3', sessionRevision: 3 }));
    const outcome = await client.send('hello', [], { to: confirmed });
    expect(outcome.kind).toBe('done');
    expect(bodies()[0]).toEqual({
      action: 'send',
      text: 'hello',
      attachmentIds: [],
      instanceId: 'instance-1',
      sessionRevision: 2,
      conversationId: 'c2',
      projectId: 'p1',
      actionId: 'action-id-1',
    });
  });

  it('a confirmed send the host no longer fits is refused again and names the new place', async () => {
    const moved = { instanceId: 'instance-1', sessionRevision: 3, conversationId: 'c3', projectId: 'p1' };
    const fresh = snapshot([], {
      ...moved,
      conversations: {
        ...seen.conversations,
        list: [aConversationSummary({ id: 'c3', title: 'Third', createdAt: 3 })],
        messages: [],
      },
    });
    const { client, requests } = setup([
      () => problem(409, 'session_mismatch', { current: moved }),
      () => jsonResponse(200, fresh),
    ]);
    const confirmed = { instanceId: 'instance-1', sessionRevision: 2, conversationId: 'c2', projectId: 'p1' };
    const outcome = await client.sensitive({ action: 'send', text: 'hello' }, { to: confirmed });
    expect(outcome.kind).toBe('session_changed');
    if (outcome.kind !== 'session_changed') return;
    expect(outcome.destination).toEqual({ ...moved, title: 'Third' });
    // Refused, never re-sent to where the host went.
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it('refuses to send before any state is known', async () => {
    const { client, requests } = setup([() => jsonResponse(200, {})], false);
    await expect(client.send('hello')).rejects.toMatchObject({ code: 'no_state' });
    expect(requests).toHaveLength(0);
  });
});

describe('createBridgeClient: upload', () => {
  it('posts the raw file with its type and name and returns the attachment', async () => {
    const attachment = { id: 'att1', name: 'a b.png', type: 'image/png', size: 3 };
    const { client, requests } = setup([() => jsonResponse(201, { attachment })]);
    const progress: number[][] = [];
    const file = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
    const result = await client.upload(file, 'a b.png', { onProgress: (l, t) => progress.push([l, t]) });
    expect(result).toEqual(attachment);
    expect(requests[0]?.url).toBe('http://bridge.test/api/upload?name=a%20b.png');
    expect(requests[0]?.headers.get('content-type')).toBe('image/png');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer k7-plum');
    expect(requests[0]?.body).toBe(file);
    expect(progress).toEqual([[3, 3]]);
  });

  it('names the conversation the file is for, when given', async () => {
    const attachment = { id: 'att2', name: 'n.txt', type: 'text/plain', size: 1 };
    const { client, requests } = setup([() => jsonResponse(201, { attachment })]);
    await client.upload(new Blob(['x']), 'n.txt', { conversationId: 'conv_1-x' });
    expect(requests[0]?.url).toBe('http://bridge.test/api/upload?name=n.txt&conversationId=conv_1-x');
  });

  it('aborts through the signal', async () => {
    const { client } = setup([
      (r) =>
        new Promise<Response>((_, reject) =>
          r.signal?.addEventListener('abort', () => reject(r.signal?.reason)),
        ),
    ]);
    const controller = new AbortController();
    const pending = client.upload(new Blob(['x']), 'x.txt', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('maps a refused upload to its problem', async () => {
    const { client } = setup([() => problem(413, 'payload_too_large')]);
    await expect(client.upload(new Blob(['x']), 'x.txt')).rejects.toMatchObject({
      code: 'payload_too_large',
      status: 413,
    });
  });
});

describe('createActionId', () => {
  it('builds a v4 UUID from getRandomValues where randomUUID is missing (plain HTTP)', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = new Set(Array.from({ length: 50 }, () => createActionId()));
      expect(ids.size).toBe(50);
      for (const id of ids)
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
