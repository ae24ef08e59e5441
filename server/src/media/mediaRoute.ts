import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { contract } from '@webbridge/contract';
import type { Context } from 'hono';
import type { HostAdapter } from '../adapter';
import { BridgeError } from '../errors/BridgeError';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import { contractQuery } from '../routes/contractQuery';
import type { MediaRegistry } from './MediaRegistry';

/** Types a browser may show inline; anything else is a download, never rendered as a page. */
const INLINE =
  /^(image\/(png|jpeg|gif|webp|avif)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|text\/plain)$/;

/** Dependencies of GET/HEAD /api/media. */
export interface MediaDeps {
  readonly host: HostAdapter;
  readonly media: MediaRegistry;
}

/**
 * GET and HEAD /api/media?id=: no Bearer, the id is the credential. Unknown, expired and
 * vanished files all answer the same 404. Files are served with a sandboxing CSP and
 * `nosniff`, so an uploaded HTML or SVG file cannot run script in the page's origin.
 */
export function mediaRoute({ host, media }: MediaDeps): (c: Context) => Promise<Response> {
  const checkHeaders = headerCheck(contract.media);
  return async (c: Context) => {
    checkHeaders(headOf(c));
    // An id outside the contract's rule is unknown like any other: the same 404.
    const query = contractQuery(c, contract.media.query);
    const attachmentId = query.success ? media.resolve(query.data.id) : undefined;
    const file = attachmentId === undefined ? undefined : host.resolveMedia(attachmentId);
    const info = file ? await stat(file.path).catch(() => undefined) : undefined;
    if (!file || !info?.isFile()) throw new BridgeError('not_found', 'No such media.');
    const inline = INLINE.test(file.type);
    const headers = {
      'Content-Type': file.type,
      'Content-Length': String(info.size),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    };
    if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
    const body = Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 200, headers });
  };
}
