import type { Projection } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { onMain, testController, waitForIdle, waitForState } from '../testing/testController';
import type { ChatController } from './ChatController';
import { share } from './share';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

describe('structural sharing', () => {
  it('makes a new object only for the message a streamed word grew', async () => {
    const { controller } = testController({ echoDelayMs: 10 });
    open.push(controller);
    await onMain(controller, () => controller.messages.send('history one'));
    await waitForIdle(controller);
    const { replyId } = await onMain(controller, () => controller.messages.send('streaming words here now'));
    await waitForState(controller, (s) => s.conversations.messages.at(-1)?.text === 'streaming ');

    const before = controller.readState();
    const after = await new Promise<Projection>((resolve) => {
      const unsubscribe = controller.subscribe(() => {
        unsubscribe();
        resolve(controller.readState());
      });
    });
    expect(after.conversations.messages.at(-1)!.text).toBe('streaming words ');
    expect(after).not.toBe(before);
    expect(after.conversations).not.toBe(before.conversations);
    expect(after.conversations.messages).not.toBe(before.conversations.messages);
    const index = after.conversations.messages.findIndex((m) => m.id === replyId);
    after.conversations.messages.forEach((message, i) => {
      if (i === index) expect(message).not.toBe(before.conversations.messages[i]);
      else expect(message).toBe(before.conversations.messages[i]);
    });
    expect(after.conversations.list).toBe(before.conversations.list);
    expect(after.conversations.pending).toBe(before.conversations.pending);
    expect(after.conversations.run).toBe(before.conversations.run);
    for (const group of ['projects', 'models', 'tools', 'approvals', 'settings'] as const) {
      expect(after[group]).toBe(before[group]);
    }
  });

  it('keeps untouched groups and messages when a structural action changes something else', async () => {
    const { controller } = testController();
    open.push(controller);
    await onMain(controller, () => controller.messages.send('keep me'));
    const before = await waitForIdle(controller);
    await onMain(controller, () => controller.settings.update({ theme: 'dark' }));
    const after = controller.readState();
    expect(after.settings).not.toBe(before.settings);
    expect(after.settings.theme).toBe('dark');
    expect(after.conversations).toBe(before.conversations);
    expect(after.projects).toBe(before.projects);
    expect(after.models).toBe(before.models);
    expect(after.approvals).toBe(before.approvals);
  });

  it('does not announce a change when nothing changed', async () => {
    const { controller } = testController();
    open.push(controller);
    const before = controller.readState();
    let calls = 0;
    controller.subscribe(() => calls++);
    await onMain(controller, () => controller.conversations.selectConversation(before.conversationId));
    await onMain(controller, () => controller.messages.stop());
    expect(calls).toBe(0);
    expect(controller.readState()).toBe(before);
  });
});

describe('share', () => {
  it('returns the previous object for deep-equal values and matches array items by id', () => {
    const prev = {
      list: [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ],
      other: { k: 1 },
    };
    const next = share(prev, {
      list: [
        { id: 'x', n: 0 },
        { id: 'a', n: 1 },
        { id: 'b', n: 3 },
      ],
      other: { k: 1 },
    });
    expect(next.other).toBe(prev.other);
    expect(next.list[1]).toBe(prev.list[0]);
    expect(next.list[2]).not.toBe(prev.list[1]);
    expect(next.list[2]).toEqual({ id: 'b', n: 3 });
    expect(share(prev, structuredClone(prev))).toBe(prev);
  });
});
