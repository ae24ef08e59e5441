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
  /** A local picture of an image file (an object URL), shown while it uploads. */
  readonly previewUrl?: string;
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

/** How long a finished upload waits for the host to list it before it is forgotten. */
const SETTLE_GRACE_MS = 3000;

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
   * Forgets finished uploads the host lists as pending now or listed before (they are shown
   * from the state, or went with a message), and those finished more than `graceMs` ago
   * (gone with another conversation). Also runs by itself when an upload finishes and once its
   * grace period is over.
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
  let nextKey = 1;
  // Every attachment id the host has listed as pending. The host lists a file on its event
  // stream and answers the upload on another connection, in either order: a file listed
  // before its upload answered, then sent, was never in a later list, and its chip stayed.
  const listed = new Set<string>();
  let latest: ReadonlySet<string> = new Set();
  const update = (key: number, patch: Partial<UploadItem>) =>
    items.set(items.get().map((item) => (item.key === key ? { ...item, ...patch } : item)));
  // The one way items leave: their previews' memory goes with them.
  const remove = (gone: (item: UploadItem) => boolean) => {
    const all = items.get();
    const kept = all.filter((item) => !gone(item));
    if (kept.length === all.length) return;
    for (const item of all) if (item.previewUrl && gone(item)) URL.revokeObjectURL(item.previewUrl);
    items.set(kept);
  };

  const settle = (pendingIds: ReadonlySet<string>, now = Date.now(), graceMs = SETTLE_GRACE_MS) => {
    latest = pendingIds;
    for (const id of pendingIds) listed.add(id);
    const settled = (i: UploadItem) =>
      i.status === 'done' &&
      ((i.attachmentId !== undefined && listed.has(i.attachmentId)) || now - (i.doneAt ?? now) > graceMs);
    remove(settled);
  };

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
      ...(previewable(file) ? { previewUrl: URL.createObjectURL(file) } : {}),
    };
    items.set([...items.get(), item]);
    try {
      const attachment = await upload(file, file.name || 'file', {
        signal: controller.signal,
        conversationId,
        onProgress: (loaded) => update(key, { loaded: Math.min(loaded, file.size) }),
      });
      update(key, { status: 'done', loaded: file.size, attachmentId: attachment.id, doneAt: Date.now() });
      // Gone at once if the host listed it already; else when it does, or after the grace
      // period even if nothing else happens on the page by then.
      settle(latest);
      setTimeout(() => settle(latest), SETTLE_GRACE_MS + 1);
    } catch (error) {
      if (error instanceof BridgeClientError && error.code === 'aborted') {
        remove((i) => i.key === key);
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
      else remove((i) => i.key === key);
    },
    settle,
  };
}

/** Whether the browser can show `file` as a picture (not SVG: it is a document, not a photo). */
function previewable(file: File): boolean {
  return (
    file.type.startsWith('image/') &&
    file.type !== 'image/svg+xml' &&
    typeof URL.createObjectURL === 'function'
  );
}

/** The page's phrase for a failed upload; undefined when the host's detail says it. */
function uploadErrorKey(error: unknown): MessageKey | undefined {
  if (!(error instanceof BridgeClientError)) return 'uploadFailed';
  return error.code === 'network' ? 'uploadInterrupted' : undefined;
}

function describeUploadError(error: unknown): string {
  return error instanceof BridgeClientError ? error.detail : inEnglish({ key: 'uploadFailed' });
}
