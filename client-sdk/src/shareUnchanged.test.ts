import type { Message, Snapshot } from '@webbridge/contract';
import { aConversationSummary } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { shareUnchanged } from './shareUnchanged';
import { createStore } from './store';
import { message, snapshot, snapshotEvent } from './testing/fixtures';

/** A deep copy, as a second snapshot from the wire is. */
const fresh = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const history = (n: number): Message[] =>
  Array.from({ length: n }, (_, i) =>
    message(`m${i}`, `text ${i}`, {
      role: i % 2 === 0 ? 'user' : 'assistant',
      parentId: i === 0 ? null : `m${i - 1}`,
    }),
  );

describe('shareUnchanged', () => {
  it('returns the previous snapshot itself when nothing changed', () => {
    const before = snapshot(history(50));
    expect(shareUnchanged(before, fresh(before))).toBe(before);
  });

  it('keeps the identity of unchanged messages and groups, and takes the changed ones', () => {
    const before = snapshot(history(20));
    const next = fresh(before);
    const last = next.conversations.messages[19] as Message;
    next.conversations.messages[19] = { ...last, text: `${last.text} and more`, status: 'streaming' };
    next.conversations.list.push(aConversationSummary({ id: 'c2', title: 'Second', createdAt: 2 }));
    const shared = shareUnchanged(before, next);
    expect(shared).toEqual(next);
    expect(shared).not.toBe(before);
    for (let i = 0; i < 19; i++)
      expect(shared.conversations.messages[i]).toBe(before.conversations.messages[i]);
    expect(shared.conversations.messages[19]).toBe(next.conversations.messages[19]);
    expect(shared.conversations.list).toBe(next.conversations.list);
    expect(shared.settings).toBe(before.settings);
    expect(shared.projects).toBe(before.projects);
    expect(shared.approvals).toBe(before.approvals);
  });

  it('finds messages by id after a branch switch or a cut', () => {
    const before = snapshot(history(10));
    const next = fresh(before);
    next.conversations.messages.splice(2, 3);
    const shared = shareUnchanged(before, next);
    expect(shared).toEqual(next);
    expect(shared.conversations.messages[2]).toBe(before.conversations.messages[5]);
    expect(shared.conversations.messages).toHaveLength(7);
  });

  it('never returns anything but a deep copy of the next snapshot (random edits)', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let previous: Snapshot = snapshot(history(30));
    for (let round = 0; round < 300; round++) {
      const next = fresh(previous);
      const messages = next.conversations.messages;
      const i = random(messages.length + 1);
      switch (random(6)) {
        case 0:
          messages.splice(i, 1);
          break;
        case 1:
          messages.splice(i, 0, message(`n${round}`, `new ${round}`));
          break;
        case 2:
          if (messages[i]) messages[i] = { ...messages[i], text: `${messages[i].text}!` };
          break;
        case 3:
          if (messages[i]) messages[i] = { ...messages[i], sibling: { index: 1, count: 2 } };
          break;
        case 4:
          next.settings.theme = next.settings.theme === 'dark' ? 'light' : 'dark';
          break;
        default:
          next.sessionRevision++;
      }
      const shared = shareUnchanged(previous, next);
      expect(shared).toEqual(next);
      previous = shared;
    }
  });
});

describe('the store shares what a full snapshot leaves unchanged', () => {
  it('from the stream and from a state read', () => {
    const store = createStore();
    const first = snapshot(history(40));
    store.replaceSnapshot(first);
    const again = fresh(first);
    again.conversations.messages.push(message('m40', 'the newest'));
    store.apply(snapshotEvent(5, again));
    const state = store.getState();
    expect(state.sync?.seq).toBe(5);
    expect(state.sync?.snapshot).toBe(state.snapshot);
    expect(state.snapshot?.conversations.messages[0]).toBe(first.conversations.messages[0]);
    expect(state.snapshot?.conversations.messages[40]?.text).toBe('the newest');
    const calls: unknown[] = [];
    store.subscribe((s) => calls.push(s));
    store.replaceSnapshot(fresh(again));
    expect(calls).toHaveLength(0);
  });
});
