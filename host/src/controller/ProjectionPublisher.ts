import type { Projection } from '@webbridge/contract';
import { share } from './share';

/**
 * Holds the controller's current {@link Projection} and tells subscribers when it changes.
 *
 * Every new projection goes through {@link share}, so whatever did not change keeps its object
 * identity: the bridge diffs by reference, and a fresh object where nothing changed would be
 * sent to every client as a change.
 */
export class ProjectionPublisher {
  private readonly listeners = new Set<() => void>();
  private projection: Projection | undefined;

  /** The current projection (immutable; cheap). Throws before the first {@link publish}. */
  read(): Projection {
    if (!this.projection) throw new Error('The controller is not initialised.');
    return this.projection;
  }

  /** Calls `listener` synchronously after every change of the projection. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Forgets every subscriber; a closed controller has no one left to tell. */
  clear(): void {
    this.listeners.clear();
  }

  /** Replaces the projection with `next`, sharing every part equal to the current one. */
  publish(next: Projection): void {
    this.commit(share(this.projection, next));
  }

  /**
   * The hot path: one streamed word of a message in the current conversation. Rebuilding the
   * whole projection per word would be too slow, so only the grown message and the arrays that
   * contain it become new objects.
   */
  appendText(messageId: string, text: string): void {
    const prev = this.read();
    const messages = prev.conversations.messages;
    // The streaming message is almost always the last one, so search from the end.
    let index = messages.length - 1;
    while (index >= 0 && messages[index]!.id !== messageId) index--;
    const old = messages[index];
    if (!old) return;
    const next = messages.slice();
    next[index] = { ...old, text: old.text + text };
    this.commit({ ...prev, conversations: { ...prev.conversations, messages: next } });
  }

  /**
   * A change whose extent the caller knows (a model switch changes `models.current` only):
   * `update` returns the next projection with new objects exactly where it changed, so no
   * rebuild from the store is needed.
   */
  patch(update: (current: Projection) => Projection): void {
    this.commit(update(this.read()));
  }

  private commit(next: Projection): void {
    if (next === this.projection) return;
    this.projection = next;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        // One broken subscriber must not keep the others from hearing about the change.
        process.emitWarning(`A webbridge state listener threw: ${String(error)}`);
      }
    }
  }
}
