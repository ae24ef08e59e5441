import { constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BridgeFiles } from '../files/BridgeFiles';
import { incomingOf } from '../guards/RequestHead';
import { receiveUpload } from '../upload/receiveUpload';
import { removeStaleParts } from '../upload/removeStaleParts';

/** Read-only, and never waiting in `open` (a no-op for regular files). */
const READ_NOW = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * The bridge's files on disk, in `dir`: an upload is streamed from Node's own request (or the
 * Fetch body under `app.request`) into a `.part` file renamed when complete (receiveUpload.ts);
 * media is opened before anything is answered, its length read from the open file.
 */
export function nodeFiles(dir: string): BridgeFiles {
  return {
    async receive(c, declared, limit) {
      const incoming = incomingOf(c);
      const body =
        incoming ?? (c.req.raw.body ? Readable.fromWeb(c.req.raw.body as never) : Readable.from([]));
      return receiveUpload(body, declared, limit, dir);
    },
    remove: (path) => rm(path, { force: true }),
    async open(path) {
      // Non-blocking: opening a FIFO put where a file was would otherwise wait for a writer.
      const handle = await open(path, READ_NOW).catch(() => undefined);
      const info = handle ? await handle.stat().catch(() => undefined) : undefined;
      if (!handle || !info?.isFile()) {
        await handle?.close();
        return undefined;
      }
      return {
        size: info.size,
        body: () =>
          Readable.toWeb(
            handle.createReadStream({ start: 0, end: info.size - 1, autoClose: true }),
          ) as ReadableStream<Uint8Array>,
        close: () => handle.close(),
      };
    },
    removeStale: () => removeStaleParts(dir),
  };
}
