import { BridgeClientError } from '@webbridge/client-sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUploads, type UploadFn } from './uploads';

function file(name: string, size: number): File {
  return new File([new Uint8Array(size)], name, { type: 'application/octet-stream' });
}

/** An upload whose progress and end the test drives. */
function controllable() {
  const calls: {
    progress: (loaded: number, total: number) => void;
    finish: (id: string) => void;
    fail: (error: unknown) => void;
    signal: AbortSignal | undefined;
    conversationId: string | undefined;
  }[] = [];
  const upload: UploadFn = (_file, _name, options) =>
    new Promise((resolve, reject) => {
      options.signal?.addEventListener('abort', () =>
        reject(new BridgeClientError({ code: 'aborted', status: 0, detail: 'aborted' })),
      );
      calls.push({
        progress: (l, t) => options.onProgress?.(l, t),
        finish: (id) => resolve({ id }),
        fail: reject,
        signal: options.signal,
        conversationId: options.conversationId,
      });
    });
  return { upload, calls };
}

describe('createUploads', () => {
  it('uploads into the conversation the file was picked in, and says so on the item', async () => {
    const { upload, calls } = controllable();
    const uploads = createUploads(upload);
    const done = uploads.add([file('a.bin', 10)], 'conv-7');
    expect(calls[0]?.conversationId).toBe('conv-7');
    expect(uploads.items.get()[0]?.conversationId).toBe('conv-7');
    calls[0]?.finish('att-7');
    await done;
  });

  it('shows progress, then keeps the finished upload until the host lists it as pending', async () => {
    const { upload, calls } = controllable();
    const uploads = createUploads(upload);
    const done = uploads.add([file('a.bin', 100)], 'conv-1');
    expect(uploads.items.get()).toMatchObject([{ name: 'a.bin', size: 100, loaded: 0, status: 'uploading' }]);
    calls[0]?.progress(40, 100);
    expect(uploads.items.get()[0]?.loaded).toBe(40);
    calls[0]?.finish('att-1');
    await done;
    expect(uploads.items.get()).toMatchObject([{ status: 'done', loaded: 100, attachmentId: 'att-1' }]);
    uploads.settle(new Set(['other']));
    expect(uploads.items.get()).toHaveLength(1);
    uploads.settle(new Set(['att-1']));
    expect(uploads.items.get()).toEqual([]);
  });

  it('forgets a finished upload the host never lists, after a grace period', async () => {
    const { upload, calls } = controllable();
    const uploads = createUploads(upload);
    const done = uploads.add([file('a.bin', 1)], 'conv-1');
    calls[0]?.finish('att-1');
    await done;
    const finishedAt = uploads.items.get()[0]?.doneAt ?? 0;
    uploads.settle(new Set(), finishedAt + 1000, 3000);
    expect(uploads.items.get()).toHaveLength(1);
    uploads.settle(new Set(), finishedAt + 3001, 3000);
    expect(uploads.items.get()).toEqual([]);
  });

  it('says why an upload failed, and forgets it when dismissed', async () => {
    const { upload, calls } = controllable();
    const uploads = createUploads(upload);
    const done = uploads.add([file('big.bin', 10)], 'conv-1');
    const detail = 'This host takes files of up to 25 MiB.';
    calls[0]?.fail(new BridgeClientError({ code: 'payload_too_large', status: 413, detail }));
    await done;
    const [item] = uploads.items.get();
    // The host's own words: it knows the limit, or that too many files are waiting.
    expect(item).toMatchObject({ status: 'error', error: detail });
    uploads.dismiss(item?.key ?? -1);
    expect(uploads.items.get()).toEqual([]);
  });

  it('aborts a running upload when dismissed', async () => {
    const { upload, calls } = controllable();
    const uploads = createUploads(upload);
    const done = uploads.add([file('a.bin', 10), file('b.bin', 10)], 'conv-1');
    expect(uploads.items.get()).toHaveLength(2);
    uploads.dismiss(uploads.items.get()[0]?.key ?? -1);
    expect(calls[0]?.signal?.aborted).toBe(true);
    calls[1]?.finish('att-b');
    await done;
    expect(uploads.items.get().map((i) => i.name)).toEqual(['b.bin']);
  });

  it('forgets an upload the host listed before its own answer came, once the host drops it (seen in Firefox)', async () => {
    const { upload, calls } = controllable();
    const uploads = createUploads(upload);
    const done = uploads.add([file('notes.txt', 10)], 'conv-1');
    // The event stream brings the pending attachment before the upload's HTTP answer.
    uploads.settle(new Set(['att-n']));
    calls[0]?.finish('att-n');
    await done;
    // Removed (or sent) at once: the host's list no longer has it, and nothing else changes.
    uploads.settle(new Set());
    expect(uploads.items.get()).toEqual([]);
  });

  it('forgets an upload the host listed and dropped again before its own answer came', async () => {
    const { upload, calls } = controllable();
    const uploads = createUploads(upload);
    const done = uploads.add([file('notes.txt', 10)], 'conv-1');
    uploads.settle(new Set(['att-q']));
    // Removed at once by the person, before the page had the upload's answer.
    uploads.settle(new Set());
    calls[0]?.finish('att-q');
    await done;
    expect(uploads.items.get()).toEqual([]);
  });

  describe('the chip of a finished upload always goes once the message is sent', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('when the host listed the file before the upload answered (the state event won the race)', async () => {
      const { upload, calls } = controllable();
      const uploads = createUploads(upload);
      const done = uploads.add([file('photo.jpg', 10)], 'conv-1');
      // The host adds the pending attachment and says so on the event stream: that event can
      // reach the page before the upload's own response.
      uploads.settle(new Set(['att-1']));
      calls[0]?.finish('att-1');
      await done;
      // The message goes, with the file: the host's pending list is empty again.
      uploads.settle(new Set());
      expect(uploads.items.get()).toEqual([]);
    });

    it('when the host never lists it and nothing else changes, after the grace period', async () => {
      vi.useFakeTimers();
      const { upload, calls } = controllable();
      const uploads = createUploads(upload);
      const done = uploads.add([file('a.bin', 1)], 'conv-1');
      calls[0]?.finish('att-1');
      await done;
      uploads.settle(new Set());
      expect(uploads.items.get()).toHaveLength(1);
      // No further settle call: the pending list does not change again.
      vi.advanceTimersByTime(3_100);
      expect(uploads.items.get()).toEqual([]);
    });
  });

  it('previews a picture while it uploads, and lets the preview go with the item', async () => {
    const made: string[] = [];
    const revoked: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (blob: Blob) => {
      made.push((blob as File).name);
      return `blob:preview-${made.length}`;
    };
    URL.revokeObjectURL = (url: string) => {
      revoked.push(url);
    };
    try {
      const { upload, calls } = controllable();
      const uploads = createUploads(upload);
      const done = uploads.add(
        [new File([new Uint8Array(4)], 'cat.jpg', { type: 'image/jpeg' }), file('notes.bin', 4)],
        'conv-1',
      );
      expect(uploads.items.get().map((i) => i.previewUrl)).toEqual(['blob:preview-1', undefined]);
      expect(made).toEqual(['cat.jpg']);
      calls[0]?.finish('att-1');
      calls[1]?.finish('att-2');
      await done;
      uploads.settle(new Set(['att-1', 'att-2']));
      expect(uploads.items.get()).toEqual([]);
      expect(revoked).toEqual(['blob:preview-1']);
    } finally {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });
});
