import type { Observable } from './observable';
import { observable } from './observable';
import type { Attachment, MediaRef } from './types';

/** Fresh media ids asked for after the ones in the state expired, by attachment id. */
export interface MediaUrls {
  /** Fresh refs obtained so far; components re-render when one arrives. */
  readonly fresh: Observable<ReadonlyMap<string, MediaRef>>;
  /** The media ref to use now for an attachment (the fresher of the state's and ours). */
  refOf(attachment: Attachment): MediaRef;
  /** The URL to read the attachment's file with. */
  urlOf(attachment: Attachment): string;
  /** Whether the ref in use has expired (or will within `marginMs`). */
  isExpired(attachment: Attachment, now?: number, marginMs?: number): boolean;
  /** Asks the host for a fresh media id (once at a time per attachment). */
  refresh(attachmentId: string): Promise<void>;
}

/**
 * Keeps attachment media ids usable: a media id lives a few minutes, a conversation on screen
 * lives longer, so an expired (or refused) image asks for a fresh id with `refreshMedia`.
 *
 * @example
 * ```ts
 * const media = createMediaUrls((ref) => client.mediaUrl(ref), (id) =>
 *   client.action({ action: 'refreshMedia', attachmentId: id }).then((r) => r.media));
 * ```
 */
export function createMediaUrls(
  urlOfRef: (ref: MediaRef) => string,
  fetchFresh: (attachmentId: string) => Promise<MediaRef>,
): MediaUrls {
  const fresh = observable<ReadonlyMap<string, MediaRef>>(new Map());
  const inFlight = new Map<string, Promise<void>>();
  const refOf = (attachment: Attachment): MediaRef => {
    const ours = fresh.get().get(attachment.id);
    return ours !== undefined && ours.expiresAt > attachment.media.expiresAt ? ours : attachment.media;
  };
  return {
    fresh,
    refOf,
    urlOf: (attachment) => urlOfRef(refOf(attachment)),
    isExpired: (attachment, now = Date.now(), marginMs = 5000) =>
      refOf(attachment).expiresAt - marginMs <= now,
    refresh(attachmentId) {
      const running = inFlight.get(attachmentId);
      if (running) return running;
      const task = fetchFresh(attachmentId)
        .then((ref) => {
          const next = new Map(fresh.get());
          next.set(attachmentId, ref);
          fresh.set(next);
        })
        .catch(() => {
          // The attachment is gone (404) or the host is away: the link stays as it was.
        })
        .finally(() => inFlight.delete(attachmentId));
      inFlight.set(attachmentId, task);
      return task;
    },
  };
}
