import type { Snapshot } from '@webbridge/contract';
import { createHostAdapter } from '@webbridge/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The memory is the bridge's internals; this test only reads who an id was remembered for.
import { anotherBridge } from '../support/anotherBridge';
import { getState, guardOf, postAction, problemOf, waitFor } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';

/** How many user messages in the current conversation say `text`. */
const sent = (state: Snapshot, text: string) =>
  state.conversations.messages.filter((m) => m.role === 'user' && m.text === text).length;

/** Waits until the current conversation is idle (a reply has finished). */
const idle = (h: TestHost) =>
  waitFor(async () => {
    const state = await getState(h);
    return state.conversations.run.state === 'idle' ? state : undefined;
  });

// Phones drop Wi-Fi: a POST can be applied and its answer lost, and the SDK then retries with
// the same actionId. The retry must return the first result and apply nothing.
describe('actionId: a retried action is applied once', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({ echoDelayMs: 1 });
  });
  afterAll(() => h.close(true));

  it('the same actionId again returns the first result and applies nothing', async () => {
    const action = {
      action: 'send',
      text: 'only once',
      actionId: 'retry-action-1',
      ...guardOf(await getState(h)),
    };
    const first = await postAction(h, action);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    await idle(h);
    const again = await postAction(h, action);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(firstBody);
    expect(sent(await getState(h), 'only once')).toBe(1);
  });

  it('an id is remembered for the client that sent it (so one client cannot crowd out another)', async () => {
    const action = { action: 'selectConversation', conversationId: (await getState(h)).conversationId };
    expect((await postAction(h, { ...action, actionId: 'retry-action-client' })).status).toBe(200);
    // Every request here comes from loopback, which the bridge counts as one client.
    expect(h.host.memory.recentActions(h.host.controller.instanceId).get('retry-action-client')?.client).toBe(
      'loopback',
    );
  });

  it('two requests in flight with one actionId apply it once and answer alike', async () => {
    const action = {
      action: 'send',
      text: 'in flight',
      actionId: 'retry-action-2',
      ...guardOf(await getState(h)),
    };
    const [a, b] = await Promise.all([postAction(h, action), postAction(h, action)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await a.json()).toEqual(await b.json());
    expect(sent(await idle(h), 'in flight')).toBe(1);
  });

  it('a refusal is remembered too: the retry gets the same answer, even once it would pass', async () => {
    // A long reply keeps the conversation busy: a send meanwhile is refused (422).
    const guard = guardOf(await getState(h));
    const long = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    expect((await postAction(h, { action: 'send', text: long, ...guard })).status).toBe(200);
    const action = { action: 'send', text: 'refused while busy', actionId: 'retry-action-3', ...guard };
    const first = await postAction(h, action);
    expect(first.status).toBe(422);
    const firstProblem = await problemOf(first);
    await idle(h);
    // Now the same send would be accepted, but it is the same attempt: same answer.
    const again = await postAction(h, action);
    expect(again.status).toBe(422);
    expect((await problemOf(again)).code).toBe(firstProblem.code);
    expect(sent(await getState(h), 'refused while busy')).toBe(0);
  });

  it('an actionId used for another action is a 400 and applies nothing', async () => {
    const guard = guardOf(await getState(h));
    expect(
      (await postAction(h, { action: 'send', text: 'first use', actionId: 'retry-action-4', ...guard }))
        .status,
    ).toBe(200);
    await idle(h);
    const other = await postAction(h, { action: 'stop', actionId: 'retry-action-4', ...guard });
    expect(other.status).toBe(400);
    expect((await problemOf(other)).code).toBe('invalid_request');
  });

  it('refreshMedia is not remembered: it changes nothing, and each call gets a fresh media id', async () => {
    const uploaded = await fetch(`${h.url}/api/upload?name=r.txt`, {
      method: 'POST',
      headers: { ...h.auth(), 'Content-Type': 'text/plain' },
      body: 'refresh me',
    });
    const { attachment } = (await uploaded.json()) as { attachment: { id: string } };
    const action = { action: 'refreshMedia', attachmentId: attachment.id, actionId: 'retry-action-6' };
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const response = await postAction(h, action);
      expect(response.status).toBe(200);
      ids.push(((await response.json()) as { result: { media: { id: string } } }).result.media.id);
    }
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('a bridge started again on the same host still remembers the ids (sharing off and on)', async () => {
    // The app may build a new adapter for the new bridge: the memory follows the host's run.
    const open = () => anotherBridge(h, createHostAdapter(h.host.controller));
    const action = {
      action: 'send',
      text: 'across bridges',
      actionId: 'retry-action-5',
      ...guardOf(await getState(h)),
    };
    const first = await open();
    expect((await postAction(first, action)).status).toBe(200);
    await first.stop();
    await idle(h);
    const second = await open();
    try {
      const again = await postAction(second, action);
      expect(again.status).toBe(200);
      expect(sent(await getState(h), 'across bridges')).toBe(1);
    } finally {
      await second.stop();
    }
  });
});
