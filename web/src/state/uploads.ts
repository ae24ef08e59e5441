import { BridgeClientError } from '@webbridge/client-sdk';
import type { MessageKey } from '../i18n/catalogue';
import { inEnglish } from '../i18n/phrase';
import { type Observable, observable } from './observable';

/** A file on its way to the host, or one that failed. */
export interface UploadItem {
  /** Local key (not an attachment id). */
  readonly key: number;
  readonly name: string;
  readonly size: number;
  /** The conversation the file was picked in, where the host keeps it pending. */
  readonly conversationId: string;
  readonly loaded: number;
  readonly status: 'uploading' | 'done' | 'error';
  /** The new attachment's id once the host has it. */
  readonly attachmentId?: string;
  /** When the upload finished (epoch ms). */
  readonly doneAt?: number;
  /** Why it failed, for the person: in English, or the host's detail. */
  readonly error?: string;
  /** Why it failed in the page's words, when it is one of them (shown in the page's language). */
  readonly errorKey?: MessageKey;
  /** Aborts the upload while it runs. */
  readonly abort: () => void;
}

/** What {@link createUploads} needs: the SDK client's upload method. */
export type UploadFn = (
  file: Blob,
  name: string,
  options: {
    onProgress?: (loaded: number, total: number) => void;
    signal?: AbortSignal;
    conversationId?: string;
  },
) => Promise<{ id: string }>;

/** The uploads of this page: progress of each file until the host lists it as pending. */
export interface Uploads {
  readonly items: Observable<readonly UploadItem[]>;
  /**
   * Starts uploading each file as a pending attachment of `conversationId` (the conversation
   * on screen, so the files stay there even if the host switches meanwhile); resolves when
   * all have finished (or failed).
   */
  add(files: Iterable<File>, conversationId: string): Promise<void>;
  /** Aborts an upload or forgets a failed one. */
  dismiss(key: number): void;
  /**
   * Forgets finished uploads the host now lists as pending (they are shown from the state),
   * and those finished more than `graceMs` ago (sent, or gone with another conversation).
   */
  settle(pendingIds: ReadonlySet<string>, now?: number, graceMs?: number): void;
}

/**
 * Creates the upload list. Each file is uploaded on its own with progress; a finished upload
 * stays (at 100 %) until the host's pending list shows it, so the row never blinks.
 *
 * @example
 * ```ts
 * const uploads = createUploads((file, name, o) => client.upload(file, name, o));
 * await uploads.add(input.files, snapshot.conversationId);
 * ```
 */
export function createUploads(upload: UploadFn): Uploads {
  const items = observable<readonly UploadItem[]>([]);
  // Attachment ids the host has listed as pending and no row has matched yet: the host's event
  // can come before the upload's own answer (often in Firefox), and the attachment can be sent
  // or removed before or after that answer; without this the finished row (at 100 %) stayed.
  const listed = new Set<string>();
  let nextKey = 1;
  const update = (key: number, patch: Partial<UploadItem>) =>
    items.set(items.get().map((item) => (item.key === key ? { ...item, ...patch } : item)));

  const start = async (file: File, conversationId: string): Promise<void> => {
    const key = nextKey++;
    const controller = new AbortController();
    const item: UploadItem = {
      key,
      name: file.name,
      size: file.size,
      conversationId,
      loaded: 0,
      status: 'uploading',
      abort: () => controller.abort(),
    };
    items.set([...items.get(), item]);
    try {
      const attachment = await upload(file, file.name || 'file', {
        signal: controller.signal,
        conversationId,
        onProgress: (loaded) => update(key, { loaded: Math.min(loaded, file.size) }),
      });
      if (listed.delete(attachment.id)) {
        // The host has listed it already: its pending chip shows it, or it is gone (removed or
        // sent) before this answer came; either way this row has nothing left to show.
        items.set(items.get().filter((i) => i.key !== key));
        return;
      }
      update(key, { status: 'done', loaded: file.size, attachmentId: attachment.id, doneAt: Date.now() });
    } catch (error) {
      if (error instanceof BridgeClientError && error.code === 'aborted') {
        items.set(items.get().filter((i) => i.key !== key));
        return;
      }
      const errorKey = uploadErrorKey(error);
      update(
        key,
        errorKey === undefined
          ? { status: 'error', error: describeUploadError(error) }
          : { status: 'error', error: inEnglish({ key: errorKey }), errorKey },
      );
    }
  };

  return {
    items,
    async add(files, conversationId) {
      await Promise.all(Array.from(files, (file) => start(file, conversationId)));
    },
    dismiss(key) {
      const item = items.get().find((i) => i.key === key);
      if (item === undefined) return;
      if (item.status === 'uploading') item.abort();
      else items.set(items.get().filter((i) => i.key !== key));
    },
    settle(pendingIds, now = Date.now(), graceMs = 3000) {
      for (const id of pendingIds) listed.add(id);
      const settled = (i: UploadItem) =>
        i.status === 'done' &&
        ((i.attachmentId !== undefined && listed.has(i.attachmentId)) || now - (i.doneAt ?? now) > graceMs);
      const kept = items.get().filter((i) => !settled(i));
      if (kept.length === items.get().length) return;
      for (const i of items.get())
        if (settled(i) && i.attachmentId !== undefined) listed.delete(i.attachmentId);
      items.set(kept);
    },
  };
}

/** The page's phrase for a failed upload; undefined when the host's detail says it. */
function uploadErrorKey(error: unknown): MessageKey | undefined {
  if (!(error instanceof BridgeClientError)) return 'uploadFailed';
  return error.code === 'network' ? 'uploadInterrupted' : undefined;
}

function describeUploadError(error: unknown): string {
  return error instanceof BridgeClientError ? error.detail : inEnglish({ key: 'uploadFailed' });
}
