import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ProtocolError } from '@webbridge/contract';

/** A file written completely to the upload directory. */
export interface ReceivedFile {
  readonly path: string;
  readonly size: number;
}

/**
 * Streams a request body into a new file in `dir`, never more than `limit` bytes and exactly
 * `declared` bytes. It writes to a hidden `.part` file and renames it only when complete, so
 * a failed or aborted upload leaves no file behind.
 */
export async function receiveUpload(
  body: AsyncIterable<Uint8Array> | NodeJS.ReadableStream,
  declared: number,
  limit: number,
  dir: string,
): Promise<ReceivedFile> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const id = randomBytes(16).toString('base64url');
  const partial = join(dir, `.${id}.part`);
  const path = join(dir, id);
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limit || size > declared) {
        callback(
          new ProtocolError(
            'payload_too_large',
            'The file is larger than its declared size or than this host takes.',
          ),
        );
        return;
      }
      callback(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    if (size !== declared) {
      throw new ProtocolError('invalid_request', 'The upload ended before its declared length.');
    }
    await rename(partial, path);
    return { path, size };
  } catch (error) {
    await rm(partial, { force: true });
    throw error instanceof ProtocolError
      ? error
      : new ProtocolError('invalid_request', 'The upload was interrupted.');
  }
}
