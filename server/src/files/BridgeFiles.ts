import type { Context } from 'hono';

/** A file written completely by {@link BridgeFiles.receive}. */
export interface ReceivedFile {
  /** Where it is kept: a path on disk behind Node, a key in memory in a page. */
  readonly path: string;
  readonly size: number;
}

/** A file opened for reading by {@link BridgeFiles.open}. */
export interface OpenedFile {
  /** Its length, read from the open file (not from what was recorded at upload). */
  readonly size: number;
  /** Its bytes; the file is closed when the stream ends, fails or is cancelled. */
  body(): ReadableStream<Uint8Array>;
  /** Closes it without reading (HEAD, an empty file). */
  close(): Promise<void>;
}

/**
 * Where the bridge keeps uploads and reads media from. The routes see only this, so the bridge
 * itself runs on web-standard Request and Response: behind Node it is the disk
 * (`adapters/nodeFiles.ts`: streamed through Node's own request, `.part` files renamed when
 * complete); in a page, memory (`embedding/MemoryFiles.ts`).
 */
export interface BridgeFiles {
  /**
   * Receives the request's body into a new file: exactly `declared` bytes and never more than
   * `limit` (413 `payload_too_large` past either, 400 when it ends short or is interrupted);
   * a failed upload leaves nothing behind.
   */
  receive(c: Context, declared: number, limit: number): Promise<ReceivedFile>;
  /** Deletes a file; a missing one is not an error. */
  remove(path: string): Promise<void>;
  /** Opens a regular file for reading, or undefined when there is none at `path`. */
  open(path: string): Promise<OpenedFile | undefined>;
  /** At start: removes what an earlier run left half written. Resolves with how many. */
  removeStale(): Promise<number>;
}
