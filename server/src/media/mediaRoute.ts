import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { contract, ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import type { HostAdapter } from '../HostAdapter';
import { contractQuery } from '../routes/contractQuery';
import type { MediaRegistry } from './MediaRegistry';

/** Types a browser may show inline; anything else is a download, never rendered as a page. */
const INLINE =
  /^(image\/(png|jpeg|gif|webp|avif)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|text\/plain)$/;

/** Read-only, and never waiting in `open` (a no-op for regular files). */
const READ_NOW = constants.O_RDONLY | constants.O_NONBLOCK;

/** Dependencies of GET/HEAD /api/media. */
export interface MediaDeps {
  readonly host: HostAdapter;
  readonly media: MediaRegistry;
}

/**
 * GET and HEAD /api/media?id=: no Bearer, the id is the credential. Unknown, expired and
 * vanished files all answer the same 404. Files are served with a sandboxing CSP (and, like
 * every answer, `nosniff`: guards/hardenResponse.ts), so an uploaded HTML or SVG file cannot
 * run script in the page's origin. The file is opened before anything is answered and its
 * length read from the open file: one deleted meanwhile (removeAttachment in the same burst)
 * is a 404, or, once open, is served whole from the handle.
 */
export function mediaRoute({ host, media }: MediaDeps): (c: Context) => Promise<Response> {
  const checkHeaders = headerCheck(contract.media);
  return async (c: Context) => {
    checkHeaders(headOf(c));
    // An id outside the contract's rule is unknown like any other: the same 404.
    const query = contractQuery(c, contract.media.query);
    const attachmentId = query.success ? media.resolve(query.data.id) : undefined;
    const file = attachmentId === undefined ? undefined : host.resolveMedia(attachmentId);
    // Non-blocking: opening a FIFO put where a file was would otherwise wait for a writer.
    const handle = file ? await open(file.path, READ_NOW).catch(() => undefined) : undefined;
    const info = handle ? await handle.stat().catch(() => undefined) : undefined;
    if (!file || !handle || !info?.isFile()) {
      await handle?.close();
      throw new ProtocolError('not_found', 'No such media.');
    }
    const inline = INLINE.test(file.type);
    const headers = {
      'Content-Type': file.type,
      'Content-Length': String(info.size),
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    };
    if (c.req.method === 'HEAD' || info.size === 0) {
      await handle.close();
      return new Response(null, { status: 200, headers });
    }
    return new Response(body(handle, info.size), { status: 200, headers });
  };
}

/**
 * The first `size` bytes of an open file as a web stream; the handle is closed when the stream
 * ends, fails or is cancelled (a client that went away).
 */
function body(handle: FileHandle, size: number): ReadableStream<Uint8Array> {
  const stream = handle.createReadStream({ start: 0, end: size - 1, autoClose: true });
  return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
}
