import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AttachmentFiles } from './AttachmentFiles';

describe('AttachmentFiles', () => {
  it('gives an upload an attachment id, resolves it to the file, and deletes the file with it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'attachment-files-')), 'upload');
    writeFileSync(path, 'hello');
    const files = new AttachmentFiles();
    const attachment = files.add({
      path,
      name: 'note.txt',
      type: 'text/plain',
      size: 5,
      conversationId: 'c1',
    });
    expect(attachment).toEqual({ id: expect.any(String), name: 'note.txt', type: 'text/plain', size: 5 });
    const { resolveMedia } = files; // bound: the adapter passes it on as is
    expect(resolveMedia(attachment.id)).toEqual({ path, name: 'note.txt', type: 'text/plain', size: 5 });
    expect(resolveMedia('unknown')).toBeUndefined();
    files.delete(attachment.id);
    expect(existsSync(path)).toBe(false);
    expect(resolveMedia(attachment.id)).toBeUndefined();
    files.delete(attachment.id); // already gone: nothing to do
  });
});
