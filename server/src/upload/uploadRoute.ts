import { contract, ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeFiles } from '../files/BridgeFiles';
import { headerCheck, requestHeader } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import type { HostAdapter } from '../HostAdapter';
import { contractQuery, issuesOf } from '../routes/contractQuery';
import { safeFileName, safeMediaType } from './safeNames';

/** Dependencies of POST /api/upload. */
export interface UploadDeps {
  readonly host: HostAdapter;
  /** Where the file is streamed to (the disk behind Node, memory in a page). */
  readonly files: BridgeFiles;
  readonly uploadLimit: number;
}

/** A byte count for people: 25 MiB, 300 KiB, 512 bytes (a no-break space keeps it on one line). */
function describeSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))}\u00a0MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))}\u00a0KiB`;
  return `${bytes}\u00a0bytes`;
}

/**
 * POST /api/upload?name=<file name>[&conversationId=<id>]: the raw body is the file,
 * `Content-Type` its type. A Content-Length is required (411) and checked against the limit
 * before anything is read (413); the body is then streamed to disk (or memory: BridgeFiles) and handed to the host as
 * a pending attachment of the conversation the browser names (the one its person was looking
 * at, even if the host has moved on meanwhile), or of the current one.
 */
export function uploadRoute({ host, files, uploadLimit }: UploadDeps) {
  const checkHeaders = headerCheck(contract.upload);
  return async (c: Context) => {
    const query = contractQuery(c, contract.upload.query);
    if (!query.success) {
      throw new ProtocolError(
        'invalid_request',
        'Give the file name as ?name= (1 to 255 characters) and at most one conversationId.',
        { issues: issuesOf(query.error) },
      );
    }
    // The contract's rule, then the last path segment of it: a name, never a path.
    const name = safeFileName(query.data.name);
    if (name === undefined) {
      throw new ProtocolError('invalid_request', 'Give the file name as ?name= (1 to 255 characters).', {
        issues: [{ path: ['name'], message: 'a file name, not a folder' }],
      });
    }
    const { conversationId } = query.data;
    const head = headOf(c);
    checkHeaders(head);
    // Digits, as the contract's check just made sure (411 otherwise); a size too large for a
    // number is past any limit.
    const declared = Number(requestHeader(head, 'content-length'));
    if (declared === 0) throw new ProtocolError('invalid_request', 'The file is empty.');
    if (declared > uploadLimit) {
      throw new ProtocolError(
        'payload_too_large',
        `This host takes files of up to ${describeSize(uploadLimit)}.`,
      );
    }
    const file = await files.receive(c, declared, uploadLimit);
    try {
      const attachment = await host.runOnMain(() =>
        host.addAttachment({
          path: file.path,
          name,
          type: safeMediaType(requestHeader(head, 'content-type')),
          size: file.size,
          conversationId,
        }),
      );
      return c.json({ attachment }, 201);
    } catch (error) {
      await files.remove(file.path);
      throw error;
    }
  };
}
