import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostMessage } from '@webbridge/contract';
import { aHostMessage } from '@webbridge/contract/testing';
import { describe, expect, it } from 'vitest';
import { codeOf } from './codeOf.testing';
import { MemoryConversations } from './MemoryConversations';

const model = { id: 'bot', name: 'Bot', provider: 'test' };
const dir = mkdtempSync(join(tmpdir(), 'memory-conversations-'));
let files = 0;
function upload(conversationId?: string) {
  const path = join(dir, `upload-${files++}`);
  writeFileSync(path, 'bytes');
  return { path, name: 'note.txt', type: 'text/plain', size: 5, conversationId };
}
const message = (id: string, attachments: HostMessage['attachments'] = []): HostMessage =>
  aHostMessage({ id, text: id, attachments });

describe('MemoryConversations', () => {
  it('starts with one empty conversation, and new and select move the session identity', () => {
    const c = new MemoryConversations({ model, title: 'First' });
    const state = c.store.readState;
    const first = state().conversationId;
    expect(state().conversations.list.map((s) => s.title)).toEqual(['First']);
    expect(state().models.current).toBe('bot');
    const { conversationId: second } = c.actions.newConversation({
      action: 'newConversation',
      title: 'Second',
    });
    expect(state()).toMatchObject({ conversationId: second, sessionRevision: 1 });
    expect(state().conversations.list.map((s) => s.title)).toEqual(['First', 'Second']);
    c.actions.selectConversation({ action: 'selectConversation', conversationId: first });
    expect(state()).toMatchObject({ conversationId: first, sessionRevision: 2 });
    expect(
      codeOf(() => c.actions.selectConversation({ action: 'selectConversation', conversationId: 'x' })),
    ).toBe('not_found');
    expect(
      codeOf(() => c.actions.newConversation({ action: 'newConversation', projectId: 'elsewhere' })),
    ).toBe('not_found');
  });

  it('shows the messages it is given, keeps other conversations apart, and says which one streams', () => {
    const c = new MemoryConversations({ model });
    const first = c.store.readState().conversationId;
    c.setMessages(first, [message('m1'), message('m2')], 'm2');
    const shown = c.store.readState().conversations;
    expect(shown.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(shown.run).toEqual({ state: 'streaming', messageId: 'm2' });
    c.actions.newConversation({ action: 'newConversation' });
    expect(c.store.readState().conversations.messages).toEqual([]);
    expect(c.store.readState().conversations.run).toEqual({ state: 'idle', messageId: null });
    // A reply in a conversation the person has left goes on there, out of sight.
    c.setMessages(first, [message('m1'), message('m2'), message('m3')], null);
    expect(c.messages(first).map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(c.store.readState().conversations.messages).toEqual([]);
  });

  it('renames with a new list and keeps the messages as they are', () => {
    const c = new MemoryConversations({ model });
    const id = c.store.readState().conversationId;
    c.setMessages(id, [message('m1')], null);
    const before = c.store.readState();
    c.actions.renameConversation({ action: 'renameConversation', conversationId: id, title: 'Renamed' });
    expect(c.store.readState().conversations.list[0]?.title).toBe('Renamed');
    expect(c.store.readState().conversations.messages).toBe(before.conversations.messages);
    expect(c.store.readState().sessionRevision).toBe(before.sessionRevision);
  });

  it('keeps uploads pending until a message carries them, and serves their files', () => {
    const c = new MemoryConversations({ model });
    const id = c.store.readState().conversationId;
    const a = c.addAttachment(upload());
    const b = c.addAttachment(upload(id));
    expect(c.pending(id)).toEqual([a, b]);
    expect(c.resolveMedia(a.id)?.name).toBe('note.txt');
    c.setMessages(id, [message('m1', [a])], null);
    expect(c.store.readState().conversations.pending).toEqual([b]);
    expect(c.resolveMedia(a.id)).toBeDefined(); // still readable on its message
    expect(codeOf(() => c.addAttachment(upload('unknown')))).toBe('not_found');
  });

  it('removes a pending upload and deletes its file', () => {
    const c = new MemoryConversations({ model });
    const a = c.addAttachment(upload());
    const path = c.resolveMedia(a.id)!.path;
    expect(c.actions.removeAttachment({ action: 'removeAttachment', attachmentId: a.id })).toEqual({
      attachmentId: a.id,
    });
    expect(c.store.readState().conversations.pending).toEqual([]);
    expect(existsSync(path)).toBe(false);
    expect(codeOf(() => c.actions.removeAttachment({ action: 'removeAttachment', attachmentId: a.id }))).toBe(
      'not_found',
    );
  });

  it('deletes a conversation with its files, moves to another one, and never leaves none', () => {
    const c = new MemoryConversations({ model });
    const first = c.store.readState().conversationId;
    const sent = c.addAttachment(upload());
    const waiting = c.addAttachment(upload());
    c.setMessages(first, [message('m1', [sent])], null);
    const paths = [sent, waiting].map((x) => c.resolveMedia(x.id)!.path);
    c.actions.deleteConversation({ action: 'deleteConversation', conversationId: first });
    expect(paths.map(existsSync)).toEqual([false, false]);
    const now = c.store.readState();
    expect(now.conversations.list).toHaveLength(1);
    expect(now.conversationId).not.toBe(first);
    expect(now.sessionRevision).toBe(1);
    expect(codeOf(() => c.messages(first))).toBe('not_found');
  });

  it('refuses to delete a conversation whose reply streams (the app must stop it first)', () => {
    const c = new MemoryConversations({ model });
    const id = c.store.readState().conversationId;
    c.setMessages(id, [message('m1')], 'm1');
    expect(
      codeOf(() => c.actions.deleteConversation({ action: 'deleteConversation', conversationId: id })),
    ).toBe('not_applicable');
    expect(c.messages(id)).toHaveLength(1);
  });
});
