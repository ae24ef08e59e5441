import { contract, ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeFiles } from '../files/BridgeFiles';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import type { HostAdapter } from '../HostAdapter';
import { contractQuery } from '../routes/contractQuery';
import type { MediaRegistry } from './MediaRegistry';

/** Types a browser may show inline; anything else is a download, never rendered as a page. */
const INLINE =
  /^(image\/(png|jpeg|gif|webp|avif)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|text\/plain)$/;

/** Dependencies of GET/HEAD /api/media. */
export interface MediaDeps {
  readonly host: HostAdapter;
  readonly media: MediaRegistry;
  /** Where the files are read from (the disk behind Node, memory in a page). */
  readonly files: BridgeFiles;
}

/**
 * GET and HEAD /api/media?id=: no Bearer, the id is the credential. Unknown, expired and
 * vanished files all answer the same 404. Files are served with a sandboxing CSP (and, like
 * every answer, `nosniff`: adapters/hardenResponse.ts), so an uploaded HTML or SVG file cannot
 * run script in the page's origin. The file is opened before anything is answered and its
 * length read from the open file: one deleted meanwhile (removeAttachment in the same burst)
 * is a 404, or, once open, is served whole from the handle.
 */
export function mediaRoute({ host, media, files }: MediaDeps): (c: Context) => Promise<Response> {
  const checkHeaders = headerCheck(contract.media);
  return async (c: Context) => {
    checkHeaders(headOf(c));
    // An id outside the contract's rule is unknown like any other: the same 404.
    const query = contractQuery(c, contract.media.query);
    const attachmentId = query.success ? media.resolve(query.data.id) : undefined;
    const file = attachmentId === undefined ? undefined : host.resolveMedia(attachmentId);
    const opened = file ? await files.open(file.path) : undefined;
    if (!file || !opened) throw new ProtocolError('not_found', 'No such media.');
    const inline = INLINE.test(file.type);
    const headers = {
      'Content-Type': file.type,
      'Content-Length': String(opened.size),
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': "default-src 'none'; sandbox; frame-ancestors 'none'",
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    };
    if (c.req.method === 'HEAD' || opened.size === 0) {
      await opened.close();
      return new Response(null, { status: 200, headers });
    }
    return new Response(opened.body(), { status: 200, headers });
  };
}
