import type { StateEvent } from '@webbridge/contract';
import { parseJsonSafely, stateEventSchema } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import { type ApplyResult, applyEvent, type SyncState } from './reducer';
import { delta, message, snapshot, snapshotEvent } from './testing/fixtures';

function applied(result: ApplyResult): SyncState {
  if (result.kind !== 'applied') throw new Error(`expected applied, got resync (${result.reason})`);
  return result.state;
}

function start(
  messages = [message('a'), message('b'), message('c', 'abc', { role: 'assistant' })],
): SyncState {
  return applied(applyEvent(null, snapshotEvent(10, snapshot(messages))));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

describe('applyEvent: snapshots', () => {
  it('a snapshot replaces no state and any state, with its seq and signature', () => {
    const first = start();
    const replacement = snapshot([message('z')], { conversationId: 'c2', sessionRevision: 2 });
    const next = applied(applyEvent(first, snapshotEvent(3, replacement, 'sig-2')));
    expect(next).toEqual({ seq: 3, signature: 'sig-2', snapshot: replacement });
    expect(next.snapshot.conversations.messages.map((m) => m.id)).toEqual(['z']);
  });
});

describe('applyEvent: refusals', () => {
  it('refuses a delta when there is no state, however complete it looks', () => {
    expect(applyEvent(null, delta(0, { add: [message('a')] }))).toEqual({
      kind: 'resync',
      reason: 'no_state',
    });
  });

  it('refuses a delta at another base and leaves the state alone', () => {
    const state = deepFreeze(start());
    for (const base of [9, 11, 0]) {
      expect(applyEvent(state, delta(base, { add: [message('d')] }))).toEqual({
        kind: 'resync',
        reason: 'wrong_base',
      });
    }
    expect(state.snapshot.conversations.messages).toHaveLength(3);
  });

  it('refuses an append at another offset than the current text length', () => {
    const state = start();
    expect(applyEvent(state, delta(10, { ap: [['c', 2, 'x']] }))).toEqual({
      kind: 'resync',
      reason: 'wrong_offset',
    });
    expect(applyEvent(state, delta(10, { ap: [['c', 4, 'x']] }))).toEqual({
      kind: 'resync',
      reason: 'wrong_offset',
    });
    expect(
      applied(applyEvent(state, delta(10, { ap: [['c', 3, 'x']] }))).snapshot.conversations.messages[2]?.text,
    ).toBe('abcx');
  });

  it('refuses unknown ids and a cut beyond the list', () => {
    const state = start();
    expect(applyEvent(state, delta(10, { ap: [['nope', 0, 'x']] }))).toMatchObject({
      reason: 'unknown_message',
    });
    expect(applyEvent(state, delta(10, { put: [message('nope')] }))).toMatchObject({
      reason: 'unknown_message',
    });
    expect(applyEvent(state, delta(10, { cut: 4 }))).toMatchObject({ reason: 'bad_cut' });
  });
});

describe('applyEvent: order cut, put, ap, add', () => {
  it('applies a cut before put and ap (a cut message cannot be replaced)', () => {
    const state = start();
    expect(applyEvent(state, delta(10, { cut: 1, put: [message('b', 'new')] }))).toMatchObject({
      reason: 'unknown_message',
    });
    expect(applyEvent(state, delta(10, { cut: 2, ap: [['c', 3, '!']] }))).toMatchObject({
      reason: 'unknown_message',
    });
  });

  it('applies ap before add (an added message cannot be appended to in the same delta)', () => {
    const state = start();
    expect(applyEvent(state, delta(10, { add: [message('d', '')], ap: [['d', 0, 'x']] }))).toMatchObject({
      reason: 'unknown_message',
    });
  });

  it('edits: cut, replace, append and add in one delta', () => {
    const state = start();
    const next = applied(
      applyEvent(
        state,
        delta(10, {
          cut: 2,
          put: [message('a', 'A!')],
          ap: [['b', 'text of b'.length, ' more']],
          add: [message('e'), message('f')],
          run: { state: 'streaming', messageId: 'f' },
        }),
      ),
    );
    expect(next.seq).toBe(11);
    expect(next.snapshot.conversations.messages.map((m) => [m.id, m.text])).toEqual([
      ['a', 'A!'],
      ['b', 'text of b more'],
      ['e', 'text of e'],
      ['f', 'text of f'],
    ]);
    expect(next.snapshot.conversations.run).toEqual({ state: 'streaming', messageId: 'f' });
  });
});

describe('applyEvent: structural sharing', () => {
  it('an append replaces only the streamed message and the containers above it', () => {
    const state = deepFreeze(start());
    const next = applied(applyEvent(state, delta(10, { ap: [['c', 3, 'def']] })));
    const before = state.snapshot;
    const after = next.snapshot;
    expect(after.conversations.messages[0]).toBe(before.conversations.messages[0]);
    expect(after.conversations.messages[1]).toBe(before.conversations.messages[1]);
    expect(after.conversations.messages[2]).not.toBe(before.conversations.messages[2]);
    expect(after.conversations.messages[2]?.sibling).toBe(before.conversations.messages[2]?.sibling);
    for (const key of ['projects', 'models', 'tools', 'settings', 'approvals'] as const) {
      expect(after[key]).toBe(before[key]);
    }
    expect(after.conversations.list).toBe(before.conversations.list);
    expect(after.conversations.run).toBe(before.conversations.run);
    expect(before.conversations.messages[2]?.text).toBe('abc');
  });

  it('an approvals-only delta keeps the conversations group', () => {
    const state = start();
    const approval = {
      id: 'ap1',
      tool: 'write',
      summary: 'write a file',
      args: '{}',
      conversationId: 'c1',
      messageId: 'c',
      createdAt: 2,
    };
    const next = applied(applyEvent(state, delta(10, { approvals: [approval] })));
    expect(next.snapshot.conversations).toBe(state.snapshot.conversations);
    expect(next.snapshot.approvals).toEqual([approval]);
  });

  it('an empty delta moves the cursor and keeps the very same snapshot', () => {
    const state = start();
    const next = applied(applyEvent(state, delta(10)));
    expect(next.seq).toBe(11);
    expect(next.snapshot).toBe(state.snapshot);
  });
});

describe('applyEvent: untrusted keys', () => {
  const poisoned = (json: string) => JSON.parse(json) as StateEvent;

  it('a __proto__ payload pollutes neither Object.prototype nor the state', () => {
    const state = start();
    const event = poisoned(
      JSON.stringify(delta(10, { add: [message('d')] })).replace(
        '"id":"d"',
        '"id":"d","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}',
      ),
    );
    const next = applied(applyEvent(state, event));
    const added = next.snapshot.conversations.messages[3]!;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(added)).toBe(Object.prototype);
    expect(Object.hasOwn(added, '__proto__')).toBe(false);
    expect(Object.hasOwn(added, 'constructor')).toBe(false);
    expect(added.id).toBe('d');
  });

  it('a __proto__ key inside a snapshot is dropped', () => {
    const raw = JSON.stringify(snapshotEvent(1, snapshot([message('a')]))).replace(
      '"settings":{',
      '"settings":{"__proto__":{"polluted":true},',
    );
    const next = applied(applyEvent(null, poisoned(raw)));
    expect(Object.hasOwn(next.snapshot.settings, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the safe parser drops the keys at every depth before validation', () => {
    const parsed = parseJsonSafely('{"a":{"__proto__":{"x":1},"prototype":2,"b":[{"constructor":3,"c":4}]}}');
    expect(parsed).toStrictEqual({ a: { b: [{ c: 4 }] } });
  });
});

describe('applyEvent: exhaustive kinds', () => {
  it('handles every kind of the contract union', () => {
    const kinds = stateEventSchema.options.map((o) => o.shape.kind.value);
    expect(kinds.sort()).toEqual(['delta', 'snapshot']);
    expect(applyEvent(null, snapshotEvent(0, snapshot([]))).kind).toBe('applied');
    expect(applyEvent(null, delta(0)).kind).toBe('resync');
  });

  it('throws on a kind it does not know instead of ignoring it', () => {
    const unknown = { kind: 'patch', seq: 1 } as unknown as StateEvent;
    expect(() => applyEvent(start(), unknown)).toThrow(TypeError);
  });
});

describe('applyEvent: compact appends', () => {
  function streaming(): SyncState {
    const base = snapshot([message('a'), message('r', 'Hel', { role: 'assistant', status: 'streaming' })]);
    const state = {
      ...base,
      conversations: { ...base.conversations, run: { state: 'streaming' as const, messageId: 'r' } },
    };
    return applied(applyEvent(null, snapshotEvent(10, state)));
  }

  it('appends to the message the run is producing and keeps the others by identity', () => {
    const before = streaming();
    const after = applied(applyEvent(before, { kind: 'append', seq: 11, base: 10, text: 'lo' }));
    expect(after.seq).toBe(11);
    expect(after.snapshot.conversations.messages[1]?.text).toBe('Hello');
    expect(after.snapshot.conversations.messages[0]).toBe(before.snapshot.conversations.messages[0]);
    expect(before.snapshot.conversations.messages[1]?.text).toBe('Hel');
  });

  it('refuses an append at another base, with no state, or with no running message', () => {
    const before = streaming();
    expect(applyEvent(before, { kind: 'append', seq: 12, base: 11, text: 'x' })).toEqual({
      kind: 'resync',
      reason: 'wrong_base',
    });
    expect(applyEvent(null, { kind: 'append', seq: 11, base: 10, text: 'x' })).toEqual({
      kind: 'resync',
      reason: 'no_state',
    });
    expect(applyEvent(start(), { kind: 'append', seq: 11, base: 10, text: 'x' })).toEqual({
      kind: 'resync',
      reason: 'no_run',
    });
  });
});
