import type { HostMessage, Projection } from '@webbridge/contract';
import { aHostMessage, aProjection } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { ResumeRing } from './ResumeRing';

function message(id: string, text: string, extra: Partial<HostMessage> = {}): HostMessage {
  return aHostMessage({ id, role: 'assistant', text, ...extra });
}

function projection(messages: HostMessage[], base?: Projection): Projection {
  if (base) return { ...base, conversations: { ...base.conversations, messages } };
  return aProjection({ conversations: { messages } });
}

/** A history, then a reply streamed word by word, as the host publishes it (shared messages). */
function streamed(words: number, history = 20): Projection[] {
  const old = Array.from({ length: history }, (_, i) => message(`m${i}`, `text ${i}`));
  let state = projection(old);
  const out = [state];
  let reply = message('r', '', { status: 'streaming' });
  state = projection([...old, { ...message('u', 'question'), role: 'user' }, reply], state);
  out.push(state);
  for (let i = 0; i < words; i++) {
    reply = { ...reply, text: `${reply.text} w${i}` };
    const messages = state.conversations.messages.slice();
    messages[messages.length - 1] = reply;
    state = projection(messages, state);
    out.push(state);
  }
  reply = { ...reply, status: 'complete' };
  const messages = state.conversations.messages.slice();
  messages[messages.length - 1] = reply;
  out.push(projection(messages, state));
  return out;
}

describe('ResumeRing', () => {
  it('rebuilds every projection it holds exactly, across appends, status changes and a cut', () => {
    const ring = new ResumeRing({ maxAgeMs: 60_000, maxBytes: 1 << 30 });
    const states = streamed(50);
    // A branch: the reply is cut and another one added.
    const last = states.at(-1)!;
    const cut = last.conversations.messages.slice(0, -1);
    states.push(projection([...cut, message('r2', 'other answer')], last));
    for (const [seq, state] of states.entries()) ring.push(seq + 10, state);
    states.forEach((state, seq) => {
      expect(ring.at(seq + 10), `seq ${seq + 10}`).toEqual(state);
    });
    expect(ring.at(9)).toBeUndefined();
    expect(ring.at(10 + states.length)).toBeUndefined();
  });

  it('rebuilds every projection across changes of its other groups, while and after its oldest expire', () => {
    let now = 0;
    const ring = new ResumeRing({ maxAgeMs: 1_000, maxBytes: 1 << 30 }, () => now);
    const states: Projection[] = [];
    let state = projection([message('m0', 'first')]);
    const publish = (next: Projection) => {
      state = next;
      states.push(next);
      now += 100;
      ring.push(states.length - 1, next);
    };
    publish(state);
    publish({ ...state, models: { ...state.models, current: 'other' } });
    publish({
      ...state,
      conversations: { ...state.conversations, run: { state: 'streaming', messageId: 'm0' } },
    });
    publish({ ...state, sessionRevision: 1, approvals: [] });
    // A member the host no longer sends (an embedding's extra field), then one it adds.
    const extra = { ...state, extra: { note: 'x' } } as Projection;
    publish(extra);
    const { extra: _gone, ...without } = extra as Projection & { extra: unknown };
    publish(without as Projection);
    publish({
      ...state,
      conversations: { ...state.conversations, run: { state: 'idle', messageId: null } },
      models: { ...state.models, current: 'echo' },
    });
    for (let i = 0; i < 20; i++) {
      publish({ ...state, settings: { ...state.settings, systemPrompt: `prompt ${i}` } });
      // Everything within the last second rebuilds exactly, including its key order.
      for (let seq = Math.max(0, states.length - 10); seq < states.length; seq++) {
        const rebuilt = ring.at(seq);
        expect(rebuilt, `seq ${seq} after ${states.length}`).toEqual(states[seq]);
        expect(Object.keys(rebuilt!)).toEqual(Object.keys(states[seq]!));
        expect('extra' in rebuilt!).toBe('extra' in states[seq]!);
      }
      expect(ring.at(states.length - 12)).toBeUndefined();
    }
  });

  it('forgets projections older than its time bound, keeping the latest', () => {
    let now = 0;
    const ring = new ResumeRing({ maxAgeMs: 1000, maxBytes: 1 << 30 }, () => now);
    const states = streamed(10);
    states.forEach((state, seq) => {
      now = seq * 200;
      ring.push(seq, state);
    });
    const latestSeq = states.length - 1;
    // Entries published within the last second are still there, older ones are gone.
    expect(ring.at(latestSeq - 5)).toEqual(states[latestSeq - 5]);
    expect(ring.at(latestSeq - 6)).toBeUndefined();
    now += 10_000;
    expect(ring.at(latestSeq - 1)).toBeUndefined();
    expect(ring.at(latestSeq)).toBe(states[latestSeq]);
    expect(ring.size.entries).toBe(1);
  });

  it('stays under its byte bound, and what it keeps still rebuilds exactly', () => {
    const ring = new ResumeRing({ maxAgeMs: 60_000, maxBytes: 64 * 1024 });
    const states = streamed(2000);
    for (const [seq, state] of states.entries()) ring.push(seq, state);
    const { entries, bytes } = ring.size;
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(entries).toBeGreaterThan(50);
    expect(entries).toBeLessThan(states.length);
    const oldest = states.length - entries;
    expect(ring.at(oldest - 1)).toBeUndefined();
    expect(ring.at(oldest)).toEqual(states[oldest]);
    expect(ring.at(states.length - 2)).toEqual(states.at(-2));
  });

  it('counts what a change made new, not the groups it shares: a model switch beside a long model list', () => {
    const list = Array.from({ length: 300 }, (_, i) => ({
      id: `model-${i}`,
      name: `A model with a long name ${i}`,
      provider: 'provider',
    }));
    let state = projection([message('m0', 'text')]);
    state = { ...state, models: { current: 'model-0', list } };
    const ring = new ResumeRing({ maxAgeMs: 60_000, maxBytes: 256 * 1024 });
    ring.push(0, state);
    const switches = 200;
    const states = [state];
    for (let seq = 1; seq <= switches; seq++) {
      state = { ...state, models: { ...state.models, current: `model-${seq % 300}` } };
      states.push(state);
      ring.push(seq, state);
    }
    // The list (~20 KB of JSON) is shared by every entry: each switch retains its entry and a
    // few bytes of group, so 200 switches fit in 256 KiB and every one still rebuilds.
    expect(ring.size.entries).toBe(switches + 1);
    expect(ring.size.bytes).toBeLessThan((switches + 1) * 1024);
    expect(ring.at(0)).toEqual(states[0]);
    expect(ring.at(switches / 2)).toEqual(states[switches / 2]);
  });

  it('keeps its bounds and rebuilds exactly across many expiries (the start moves, the array is compacted)', () => {
    let now = 0;
    const ring = new ResumeRing({ maxAgeMs: 5_000, maxBytes: 1 << 30 }, () => now);
    const states = streamed(3000);
    states.forEach((state, seq) => {
      now = seq * 10;
      ring.push(seq, state);
      if (seq % 997 === 0) {
        // Mid-run: the oldest kept is exactly 5 s old, the one before it is gone.
        const oldest = Math.max(0, seq - 500);
        expect(ring.at(oldest), `oldest at ${seq}`).toEqual(states[oldest]);
        if (oldest > 0) expect(ring.at(oldest - 1)).toBeUndefined();
      }
    });
    expect(ring.size.entries).toBe(501);
    const latest = states.length - 1;
    expect(ring.at(latest - 500)).toEqual(states[latest - 500]);
    expect(ring.at(latest - 250)).toEqual(states[latest - 250]);
    expect(ring.at(latest - 501)).toBeUndefined();
  });

  it('holds nothing after clear until the next push', () => {
    const ring = new ResumeRing();
    const [a, b] = streamed(1);
    ring.push(1, a!);
    ring.clear();
    expect(ring.at(1)).toBeUndefined();
    ring.push(2, b!);
    expect(ring.at(1)).toBeUndefined();
    expect(ring.at(2)).toBe(b);
  });
});
