import type { Projection } from '@webbridge/contract';
import { aHostMessage, aProjection } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { BridgeMemory } from '../BridgeMemory';
import type { HostAdapter } from '../HostAdapter';
import { EventHub } from './EventHub';

/** The two parts of a host the hub reads: its projection and its change notices. */
class FakeHost {
  private listener: (() => void) | undefined;
  constructor(public state: Projection) {}
  readState(): Projection {
    return this.state;
  }
  subscribe(listener: () => void): () => void {
    this.listener = listener;
    return () => {
      this.listener = undefined;
    };
  }
  /** Publishes `next`, as a host does after a change. */
  change(next: Projection): void {
    this.state = next;
    this.listener?.();
  }
}

function projection(current: string, words = 0): Projection {
  const messages = Array.from({ length: words }, (_, i) =>
    aHostMessage({
      id: `m${i}`,
      parentId: i === 0 ? null : `m${i - 1}`,
      role: 'assistant',
      text: `word ${i}`,
      createdAt: i,
    }),
  );
  return aProjection({ models: { current, list: [] }, conversations: { messages } });
}

function hubOf(host: FakeHost): EventHub {
  // The hub reads only readState and subscribe; the rest of a host plays no part here.
  return new EventHub(host as unknown as HostAdapter, new BridgeMemory());
}

describe('EventHub', () => {
  it('a burst of changes nobody was handed a seq for keeps one resume entry, not one per change', () => {
    const host = new FakeHost(projection('a'));
    const hub = hubOf(host);
    hub.latest();
    for (let i = 0; i < 1_000; i++) host.change(projection(i % 2 === 0 ? 'b' : 'a'));
    // Nobody has seen seqs 1…999: they cannot be resumed from, so they need not be kept.
    expect(hub.historySize.entries).toBe(1);
    const { seq } = hub.latest();
    expect(seq).toBe(1_000);
    expect(hub.historySize.entries).toBe(2);
    hub.dispose();
  });

  it('every seq handed out resumes to exactly the projection handed out with it; one never handed out does not', () => {
    const host = new FakeHost(projection('a'));
    const hub = hubOf(host);
    const handedOut: { seq: number; state: Projection }[] = [hub.latest()];
    const unseen: number[] = [];
    for (let burst = 1; burst <= 30; burst++) {
      const before = handedOut.at(-1)!.seq;
      // 0 to 3 changes between two reads: a model switch and a longer message list each.
      for (let i = 0; i < burst % 4; i++) host.change(projection(`model-${burst}-${i}`, burst + i));
      const read = hub.latest();
      handedOut.push(read);
      for (let seq = before + 1; seq < read.seq; seq++) unseen.push(seq);
    }
    for (const { seq, state } of handedOut) expect(hub.at(seq), `seq ${seq}`).toEqual(state);
    // A seq published between two reads, never seen by anyone, starts a client over.
    expect(unseen.length).toBeGreaterThan(0);
    for (const seq of unseen) expect(hub.at(seq), `seq ${seq}`).toBeUndefined();
    hub.dispose();
  });

  it('after restartAll, a seq handed out before it resumes to nothing; one handed out after resumes', () => {
    const host = new FakeHost(projection('a'));
    const hub = hubOf(host);
    const before = hub.latest();
    hub.restartAll();
    // Nothing changed in the host, yet the old seq must start its client over (rotated codes).
    expect(hub.at(before.seq)).toBeUndefined();
    const after = hub.latest();
    expect(after.seq).toBeGreaterThan(before.seq);
    expect(hub.at(after.seq)).toEqual(after.state);
    hub.dispose();
  });
});
