import { destinationOf } from '@webbridge/client-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { useMockBridge } from '../mocks/useMockBridge';
import { createSession, type Session } from './createSession';

// Every request goes through msw/node to the real bridge over the in-memory host.
const mocks = useMockBridge({ accessCode: 'any' });

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('until: timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function connect(): Session {
  const session = createSession({
    baseUrl: 'http://mock.test',
    accessCode: 'any',
    backoff: { baseMs: 5, maxMs: 10 },
  });
  session.start();
  return session;
}

const lastMessage = (session: Session) => session.store.getState().snapshot?.conversations.messages.at(-1);

/**
 * Whether the page shows the reply to `text` complete. The bridge answers a send before its
 * delta reaches the stream (as a real host does), so "the last message is complete" alone
 * could still be the previous reply.
 */
const replied = (session: Session, text: string) => {
  const messages = session.store.getState().snapshot?.conversations.messages ?? [];
  return messages.at(-2)?.text === text && messages.at(-1)?.status === 'complete';
};

describe('createSession against the mock bridge', () => {
  let session: Session | undefined;
  afterEach(() => session?.close());

  it('goes live and shows a streamed reply as it grows', async () => {
    mocks.start({ wordDelayMs: 15 });
    session = connect();
    const s = session;
    await until(() => s.store.getState().status === 'live');
    const lengths = new Set<number>();
    s.store.subscribe((state) => {
      const last = state.snapshot?.conversations.messages.at(-1);
      if (last?.role === 'assistant') lengths.add(last.text.length);
    });
    expect(await s.send('one two three four five', [])).toEqual({ kind: 'sent' });
    await until(() => replied(s, 'one two three four five'));
    expect(lastMessage(s)?.text).toBe('one two three four five');
    expect(lengths.size).toBeGreaterThanOrEqual(5);
  });

  it('returns the destination of a send refused with 409 and never sends it by itself', async () => {
    const backend = mocks.start({ wordDelayMs: 1 });
    session = connect();
    const s = session;
    await until(() => s.store.getState().status === 'live');
    await s.send('/switch', []);
    await until(() => replied(s, '/switch'));
    const before = backend.state().conversationId;

    const outcome = await s.send('where does this go?', []);
    expect(outcome.kind).toBe('changed');
    if (outcome.kind !== 'changed') return;
    expect(outcome.destination.conversationId).not.toBe(before);
    expect(outcome.destination.title).toBe('Trip notes');
    await new Promise((r) => setTimeout(r, 30));
    const texts = backend.state().conversations.messages.map((m) => m.text);
    expect(texts).not.toContain('where does this go?');
    // The page shows where a send would land now.
    expect(s.store.getState().snapshot?.conversationId).toBe(outcome.destination.conversationId);

    expect(await s.send('where does this go?', [], outcome.destination)).toEqual({ kind: 'sent' });
    expect(backend.state().conversations.messages[0]?.text).toBe('where does this go?');
  });

  it('sends a confirmed message only where the confirmation named: a host that moved again refuses it', async () => {
    const backend = mocks.start({ wordDelayMs: 1 });
    session = connect();
    const s = session;
    await until(() => s.store.getState().status === 'live');
    const start = backend.state().conversationId;
    backend.hostSwitch();
    const first = await s.send('bound', [], destinationOf(backend.state()));
    expect(first.kind).toBe('sent');
    s.close();
    // The person is asked about a place; the host moves back before they confirm.
    const named = destinationOf(backend.state());
    backend.hostSwitch(start);
    const outcome = await s.send('second, bound', [], named);
    expect(outcome.kind).toBe('changed');
    if (outcome.kind !== 'changed') return;
    expect(outcome.destination.conversationId).toBe(start);
    expect(backend.state().conversations.messages.map((m) => m.text)).not.toContain('second, bound');
  });

  it('turns a 409 on another session-sensitive action into a notice, doing nothing', async () => {
    const backend = mocks.start({ wordDelayMs: 1 });
    session = connect();
    const s = session;
    await until(() => s.store.getState().status === 'live');
    s.close();
    backend.hostSwitch();
    // The closed page still shows the old conversation: its stop is refused.
    expect(await s.sensitive((client) => client.stop())).toBe(false);
    expect(s.notice.get()).toMatchObject({ tone: 'info' });
    expect(s.notice.get()?.text).toContain('Trip notes');
  });

  it('makes a failed action a notice instead of a crash', async () => {
    mocks.start();
    session = connect();
    const s = session;
    await until(() => s.store.getState().status === 'live');
    expect(await s.act({ action: 'approve', approvalId: 'nope', decision: 'allow' })).toBe(false);
    expect(s.notice.get()).toMatchObject({ tone: 'error', text: 'There is no such approval.' });
  });
});
