import { ProtocolError } from '@webbridge/contract';
import type { BridgeFiles, OpenedFile, ReceivedFile } from '../files/BridgeFiles';

/**
 * The bridge's files kept in memory, for a bridge with no disk: one running in a page (the web
 * client's offline mocks) or in a worker. Web-standard only (streams, `Uint8Array`); the same
 * limits as on disk (413 past the declared size or the limit, 400 when the body ends short).
 *
 * @example
 * ```ts
 * const core = createBridgeCore({ host, accessCode, files: new MemoryFiles() });
 * ```
 */
export class MemoryFiles implements BridgeFiles {
  private readonly files = new Map<string, Uint8Array>();
  private next = 0;

  async receive(c: { req: { raw: Request } }, declared: number, limit: number): Promise<ReceivedFile> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = c.req.raw.body?.getReader();
    try {
      for (;;) {
        const read = await reader?.read();
        if (!read || read.done) break;
        size += read.value.length;
        if (size > limit || size > declared) {
          await reader?.cancel();
          throw new ProtocolError(
            'payload_too_large',
            'The file is larger than its declared size or than this host takes.',
          );
        }
        chunks.push(read.value);
      }
    } catch (error) {
      throw error instanceof ProtocolError
        ? error
        : new ProtocolError('invalid_request', 'The upload was interrupted.');
    }
    if (size !== declared)
      throw new ProtocolError('invalid_request', 'The upload ended before its declared length.');
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    this.next += 1;
    const path = `memory:${this.next}`;
    this.files.set(path, bytes);
    return { path, size };
  }

  async remove(path: string): Promise<void> {
    this.files.delete(path);
  }

  /** Synchronous {@link MemoryFiles.remove}, for a host that deletes an attachment's file in a task. */
  removeNow(path: string): void {
    this.files.delete(path);
  }

  async open(path: string): Promise<OpenedFile | undefined> {
    const bytes = this.files.get(path);
    if (bytes === undefined) return undefined;
    return {
      size: bytes.length,
      body: () =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(bytes.slice());
            controller.close();
          },
        }),
      close: async () => undefined,
    };
  }

  async removeStale(): Promise<number> {
    return 0;
  }
}
