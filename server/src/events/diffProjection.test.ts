import type { HostMessage, Projection } from '@webbridge/contract';
import { aHostMessage, aProjection } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { diffProjection, isEmptyDelta } from './diffProjection';

function message(id: string, text: string, extra: Partial<HostMessage> = {}): HostMessage {
  return aHostMessage({ id, role: 'assistant', text, ...extra });
}

function projection(messages: HostMessage[]): Projection {
  return aProjection({ conversations: { messages } });
}

describe('diffProjection', () => {
  it('sends a streamed word as one append, whatever the history length', () => {
    const history = Array.from({ length: 500 }, (_, i) => message(`m${i}`, `text ${i}`));
    const last = message('r', 'Hello', { status: 'streaming' });
    const prev = projection([...history, last]);
    const next = projection([...history, { ...last, text: 'Hello world' }]);
    expect(diffProjection(prev, next)).toEqual({ ap: [['r', 5, ' world']] });
  });

  it('patches only the fields that changed (a finished reply costs its status, not its text)', () => {
    const a = message('r', 'Hi '.repeat(1000), { status: 'streaming' });
    const b = { ...a, status: 'complete' as const };
    expect(diffProjection(projection([a]), projection([b]))).toEqual({
      set: [['r', { status: 'complete' }]],
    });
    const c = { ...a, text: `${a.text}there`, status: 'stopped' as const };
    expect(diffProjection(projection([a]), projection([c]))).toEqual({
      set: [['r', { status: 'stopped' }]],
      ap: [['r', a.text.length, 'there']],
    });
    const d = { ...a, text: 'rewritten' };
    expect(diffProjection(projection([a]), projection([d]))).toEqual({ set: [['r', { text: 'rewritten' }]] });
  });

  it('replaces the whole message when a field disappears', () => {
    const a = message('r', 'oops', { status: 'error', error: 'boom' });
    const { error: _gone, ...b } = { ...a, status: 'complete' as const };
    expect(diffProjection(projection([a]), projection([b]))).toEqual({ put: [b] });
  });

  it('cuts at the first differing id and adds the new tail', () => {
    const root = message('u1', 'q', { role: 'user' });
    const prev = projection([root, message('a1', 'x'), message('u2', 'y')]);
    const replacement = message('a2', 'z');
    expect(diffProjection(prev, projection([root, replacement]))).toEqual({ cut: 1, add: [replacement] });
  });

  it('is empty when nothing a client sees changed', () => {
    const a = message('a', 'same');
    const delta = diffProjection(projection([a]), projection([{ ...a }]));
    expect(isEmptyDelta(delta)).toBe(true);
  });

  it('carries run state and approvals only when their values changed', () => {
    const prev = projection([]);
    const sameRun = {
      ...prev,
      conversations: { ...prev.conversations, run: { state: 'idle' as const, messageId: null } },
    };
    expect(isEmptyDelta(diffProjection(prev, sameRun))).toBe(true);
    const running = {
      ...prev,
      conversations: { ...prev.conversations, run: { state: 'streaming' as const, messageId: 'r' } },
    };
    expect(diffProjection(prev, running)).toEqual({ run: { state: 'streaming', messageId: 'r' } });
  });
});
