import { type ApplyResult, applyEvent, parseJsonSafely, type SyncState } from '@webbridge/client-sdk';
import type { StreamEvent } from '@webbridge/contract';
import { appendFrameSchema, stateEventSchema } from '@webbridge/contract';
import type { SentState } from '@webbridge/server';
import { expect } from 'vitest';
import type { FakeHost } from './FakeHost';
import type { SimulatedHub } from './SimulatedHub';

/** One connection to the simulated server, and the client state behind it. */
export interface Subscriber {
  /** What the server has sent this subscriber, as its Subscriber keeps it (undefined: new connection). */
  sent: SentState | undefined;
  /** The client's state, as the SDK's reducer keeps it. */
  client: SyncState | null;
  /** Deliver after every `speed`-th change: 1 = fast consumer, more = slow (coalesced deltas). */
  readonly speed: number;
}

/** Serialises and decodes an event the way the server frames it and the SDK's reader decodes it. */
export function overTheWire(event: StreamEvent): StreamEvent {
  if (event.kind === 'append') {
    const [base, text] = appendFrameSchema.parse(parseJsonSafely(JSON.stringify([event.base, event.text])));
    return { kind: 'append', seq: event.seq, base, text };
  }
  return stateEventSchema.parse(parseJsonSafely(JSON.stringify(event)));
}

/** The state of an `applied` result; any refusal fails the test. */
export function expectApplied(result: ApplyResult): SyncState {
  if (result.kind !== 'applied') throw new Error(`the client refused a server event (${result.reason})`);
  return result.state;
}

/** Sends a subscriber what the server would, checks the client's reducer against the server's wire snapshot. */
export function deliver(server: SimulatedHub, host: FakeHost, subscriber: Subscriber): void {
  const now = host.state;
  const { event: raw, sent } = server.send(subscriber.sent, now);
  if (raw !== undefined) {
    const event = overTheWire(raw);
    const before = subscriber.client;
    if (event.kind !== 'snapshot') {
      // The same delta offered to a state at any other seq, or to no state, is refused.
      const elsewhere = { ...before!, seq: event.base + 1 + (event.seq % 3) };
      expect(applyEvent(elsewhere, event)).toEqual({ kind: 'resync', reason: 'wrong_base' });
      expect(applyEvent(null, event)).toEqual({ kind: 'resync', reason: 'no_state' });
    }
    const after = expectApplied(applyEvent(before, event));
    if (event.kind === 'delta' && before !== null && subscriber.sent !== undefined) {
      // Messages the host kept by identity keep their identity on the client too.
      const previous = subscriber.sent.state.conversations.messages;
      const current = now.conversations.messages;
      for (let i = 0; i < Math.min(previous.length, current.length); i++) {
        if (previous[i] === current[i]) {
          expect(after.snapshot.conversations.messages[i]).toBe(before.snapshot.conversations.messages[i]);
        }
      }
    }
    subscriber.client = after;
  }
  // After an empty diff nothing went out: the server remembers the newer projection but keeps
  // the client's seq as the next delta's base (nextSend's `unseen`).
  subscriber.sent = sent;
  expect(subscriber.client?.snapshot).toStrictEqual(server.wire(now));
}
