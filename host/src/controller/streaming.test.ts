import { afterEach, describe, expect, it } from 'vitest';
import { onMain, testController, waitForIdle, waitForState } from '../testing/testController';
import type { ChatController } from './ChatController';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

describe('echo streaming', () => {
  it('streams the text back word by word, each word its own change', async () => {
    const { controller } = testController();
    open.push(controller);
    const seen: string[] = [];
    const { replyId } = await onMain(controller, () => controller.messages.send('  one two  three'));
    controller.subscribe(() => {
      const reply = controller.readState().conversations.messages.find((m) => m.id === replyId);
      if (reply && seen.at(-1) !== reply.text) seen.push(reply.text);
    });
    expect(controller.readState().conversations.run).toEqual({ state: 'streaming', messageId: replyId });
    const state = await waitForIdle(controller);
    expect(state.conversations.messages.at(-1)).toMatchObject({
      text: '  one two  three',
      status: 'complete',
    });
    expect(seen).toEqual(['  one ', '  one two  ', '  one two  three']);
    expect(state.conversations.run).toEqual({ state: 'idle', messageId: null });
  });

  it('stops mid-stream at once, and continues from where it stopped', async () => {
    const { controller } = testController({ echoDelayMs: 15 });
    open.push(controller);
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    const { replyId } = await onMain(controller, () => controller.messages.send(text));
    await waitForState(controller, (s) => (s.conversations.messages.at(-1)?.text.length ?? 0) > 0);
    const stopped = await onMain(controller, () => controller.messages.stop());
    expect(stopped).toEqual({ stopped: true });
    const partial = controller.readState().conversations.messages.at(-1)!;
    expect(partial.status).toBe('stopped');
    expect(partial.text.length).toBeLessThan(text.length);
    expect(text.startsWith(partial.text)).toBe(true);

    // No word arrives after the stop.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(controller.readState().conversations.messages.at(-1)!.text).toBe(partial.text);
    expect(controller.readState().conversations.run.state).toBe('idle');

    const resumed = await onMain(controller, () => controller.messages.continue());
    expect(resumed).toEqual({ messageId: replyId });
    const done = await waitForState(
      controller,
      (s) => s.conversations.messages.at(-1)?.status === 'complete',
    );
    expect(done.conversations.messages.at(-1)!.text).toBe(text);
    expect(done.conversations.messages).toHaveLength(2);
  });

  it('answers stop with stopped:false when nothing runs, and refuses continue on a complete reply', async () => {
    const { controller } = testController();
    open.push(controller);
    await onMain(controller, () => controller.messages.send('short'));
    await waitForIdle(controller);
    await expect(onMain(controller, () => controller.messages.stop())).resolves.toEqual({ stopped: false });
    await expect(onMain(controller, () => controller.messages.continue())).rejects.toMatchObject({
      code: 'not_applicable',
    });
  });

  it('writes every streamed word to SQLite as it goes', async () => {
    const { controller, dataDir } = testController({ echoDelayMs: 20 });
    open.push(controller);
    const { replyId } = await onMain(controller, () => controller.messages.send('persist each word now'));
    await waitForState(controller, (s) => s.conversations.messages.at(-1)?.text === 'persist each ');
    // Committed at the end of the word's turn (group commit), before the next word comes.
    await controller.whenCommitted();
    const Database = (await import('better-sqlite3')).default;
    const reader = new Database(`${dataDir}/webbridge.db`, { readonly: true });
    const row = reader.prepare('SELECT text, status FROM messages WHERE id = ?').get(replyId);
    reader.close();
    expect(row).toEqual({ text: 'persist each ', status: 'streaming' });
  });
});
