import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onMain, testController, waitForIdle } from '../testing/testController';
import { MAX_PENDING_BYTES, MAX_PENDING_FILES } from './Attachments';
import type { ChatController } from './ChatController';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

function upload(dataDir: string, name: string, content = 'data') {
  const dir = path.join(dataDir, 'uploads');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.bin`);
  fs.writeFileSync(file, content);
  return { path: file, name, type: 'text/plain', size: Buffer.byteLength(content) };
}

describe('attachments', () => {
  it('keeps uploads pending until a send takes them', async () => {
    const { controller, dataDir } = testController();
    open.push(controller);
    const a = await onMain(controller, () => controller.attachments.add(upload(dataDir, 'a.txt')));
    const b = await onMain(controller, () => controller.attachments.add(upload(dataDir, 'b.txt')));
    expect(controller.readState().conversations.pending.map((p) => p.id)).toEqual([a.id, b.id]);
    await onMain(controller, () => controller.messages.send('with one', [b.id]));
    await waitForIdle(controller);
    const state = controller.readState();
    expect(state.conversations.pending.map((p) => p.id)).toEqual([a.id]);
    expect(state.conversations.messages[0]!.attachments).toEqual([
      { id: b.id, name: 'b.txt', type: 'text/plain', size: 4 },
    ]);
    expect(controller.attachments.file(b.id)).toMatchObject({ name: 'b.txt', size: 4 });
    await expect(onMain(controller, () => controller.attachments.remove(b.id))).rejects.toMatchObject({
      code: 'not_applicable',
    });
    await expect(onMain(controller, () => controller.messages.send('x', ['unknown']))).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('keeps at most MAX_PENDING_FILES waiting per conversation and MAX_PENDING_BYTES in all', async () => {
    const { controller, dataDir } = testController();
    open.push(controller);
    for (let i = 0; i < MAX_PENDING_FILES; i++) {
      await onMain(controller, () => controller.attachments.add(upload(dataDir, `f${i}`)));
    }
    await expect(
      onMain(controller, () => controller.attachments.add(upload(dataDir, 'one-more'))),
    ).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    expect(controller.readState().conversations.pending).toHaveLength(MAX_PENDING_FILES);
    // Another conversation has its own count, but the bytes are counted across the host.
    await onMain(controller, () => controller.conversations.newConversation());
    const other = await onMain(controller, () => controller.attachments.add(upload(dataDir, 'elsewhere')));
    expect(controller.readState().conversations.pending.map((p) => p.id)).toEqual([other.id]);
    const pendingBytes = (MAX_PENDING_FILES + 1) * 4;
    const huge = { ...upload(dataDir, 'huge'), size: MAX_PENDING_BYTES - pendingBytes + 1 };
    await expect(onMain(controller, () => controller.attachments.add(huge))).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    const fits = { ...upload(dataDir, 'fits'), size: MAX_PENDING_BYTES - pendingBytes };
    await onMain(controller, () => controller.attachments.add(fits));
    expect(controller.readState().conversations.pending).toHaveLength(2);
  });

  it('removes a pending attachment with its file', async () => {
    const { controller, dataDir } = testController();
    open.push(controller);
    const file = upload(dataDir, 'gone.txt');
    const a = await onMain(controller, () => controller.attachments.add(file));
    await onMain(controller, () => controller.attachments.remove(a.id));
    expect(fs.existsSync(file.path)).toBe(false);
    expect(controller.readState().conversations.pending).toEqual([]);
    expect(controller.attachments.file(a.id)).toBeUndefined();
  });

  it('deletes the attachment files of a deleted conversation, and only those', async () => {
    const { controller, dataDir } = testController();
    open.push(controller);
    const sent = upload(dataDir, 'sent.txt');
    const pending = upload(dataDir, 'pending.txt');
    const kept = upload(dataDir, 'kept.txt');
    await onMain(controller, () => controller.attachments.add(sent));
    await onMain(controller, () => controller.messages.send('here'));
    await waitForIdle(controller);
    await onMain(controller, () => controller.attachments.add(pending));
    const doomed = controller.readState().conversationId;
    await onMain(controller, () => controller.conversations.newConversation());
    const keptAttachment = await onMain(controller, () => controller.attachments.add(kept));
    await onMain(controller, () => controller.conversations.selectConversation(doomed));

    await onMain(controller, () => controller.conversations.deleteConversation(doomed));
    expect(fs.existsSync(sent.path)).toBe(false);
    expect(fs.existsSync(pending.path)).toBe(false);
    expect(fs.existsSync(kept.path)).toBe(true);
    const state = controller.readState();
    expect(state.conversations.list.map((c) => c.id)).not.toContain(doomed);
    expect(state.conversationId).not.toBe(doomed);
    expect(state.conversations.pending.map((p) => p.id)).toEqual([keptAttachment.id]);
  });

  it('creates a fresh conversation when the last one is deleted', async () => {
    const { controller } = testController();
    open.push(controller);
    const only = controller.readState().conversationId;
    await onMain(controller, () => controller.conversations.deleteConversation(only));
    const state = controller.readState();
    expect(state.conversations.list).toHaveLength(1);
    expect(state.conversationId).not.toBe(only);
    await expect(
      onMain(controller, () => controller.conversations.deleteConversation(only)),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
