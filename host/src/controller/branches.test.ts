import { afterEach, describe, expect, it } from 'vitest';
import { onMain, testController, waitForIdle } from '../testing/testController';
import type { ChatController } from './ChatController';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

function start(): ChatController {
  const { controller } = testController();
  open.push(controller);
  return controller;
}

async function send(controller: ChatController, text: string) {
  const result = await onMain(controller, () => controller.messages.send(text));
  await waitForIdle(controller);
  return result;
}

describe('message tree', () => {
  it('appends a user message and an echo reply on each send', async () => {
    const controller = start();
    const first = await send(controller, 'hello there');
    await send(controller, 'again');
    const messages = controller.readState().conversations.messages;
    expect(messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ['user', 'hello there', 'complete'],
      ['assistant', 'hello there', 'complete'],
      ['user', 'again', 'complete'],
      ['assistant', 'again', 'complete'],
    ]);
    expect(messages[0]!.id).toBe(first.messageId);
    expect(messages[1]!.parentId).toBe(first.messageId);
    expect(messages[2]!.parentId).toBe(first.replyId);
    expect(messages.every((m) => m.sibling.index === 0 && m.sibling.count === 1)).toBe(true);
    expect(controller.readState().conversations.list[0]!.title).toBe('hello there');
  });

  it('turns an edit into a new branch with sibling counts, and switches back and forth', async () => {
    const controller = start();
    const original = await send(controller, 'first question');
    await send(controller, 'follow up');
    const edit = await onMain(controller, () =>
      controller.messages.editMessage(original.messageId, 'better question'),
    );
    await waitForIdle(controller);

    let messages = controller.readState().conversations.messages;
    expect(messages.map((m) => m.text)).toEqual(['better question', 'better question']);
    expect(messages[0]!.id).toBe(edit.messageId);
    expect(messages[0]!.sibling).toEqual({ index: 1, count: 2 });
    expect(messages[1]!.id).toBe(edit.replyId);

    // Back to the original branch lands on its deepest leaf, not just the edited message.
    await onMain(controller, () => controller.messages.branch(edit.messageId, 0));
    messages = controller.readState().conversations.messages;
    expect(messages.map((m) => m.text)).toEqual([
      'first question',
      'first question',
      'follow up',
      'follow up',
    ]);
    expect(messages[0]!.sibling).toEqual({ index: 0, count: 2 });

    await onMain(controller, () => controller.messages.branch(original.messageId, 1));
    expect(controller.readState().conversations.messages.at(-1)!.id).toBe(edit.replyId);
  });

  it('adds a regenerated reply as a sibling of the old one', async () => {
    const controller = start();
    const sent = await send(controller, 'say it twice');
    const again = await onMain(controller, () => controller.messages.regenerate());
    await waitForIdle(controller);
    const messages = controller.readState().conversations.messages;
    expect(messages).toHaveLength(2);
    expect(messages[1]!.id).toBe(again.replyId);
    expect(messages[1]!.parentId).toBe(sent.messageId);
    expect(messages[1]!.sibling).toEqual({ index: 1, count: 2 });
    expect(messages[1]!.text).toBe('say it twice');
  });

  it('refuses edits of replies, unknown ids and out-of-range branches', async () => {
    const controller = start();
    const sent = await send(controller, 'only one');
    await expect(
      onMain(controller, () => controller.messages.editMessage(sent.replyId, 'x')),
    ).rejects.toMatchObject({
      code: 'not_applicable',
    });
    await expect(
      onMain(controller, () => controller.messages.editMessage('nope', 'x')),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      onMain(controller, () => controller.messages.branch(sent.messageId, 3)),
    ).rejects.toMatchObject({
      code: 'not_applicable',
    });
    await expect(
      onMain(controller, () => controller.messages.regenerate(sent.messageId)),
    ).rejects.toMatchObject({
      code: 'not_applicable',
    });
  });

  it('refuses a send while a reply streams', async () => {
    const { controller } = testController({ echoDelayMs: 50 });
    open.push(controller);
    await onMain(controller, () => controller.messages.send('one two three'));
    await expect(onMain(controller, () => controller.messages.send('again'))).rejects.toMatchObject({
      code: 'not_applicable',
      status: 422,
    });
  });
});
