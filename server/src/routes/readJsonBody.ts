import type { IncomingMessage } from 'node:http';
import { ProtocolError } from '@webbridge/contract';
import { markBodyReadWhole } from '../guards/closeWhenUnread';
import { requestHeader } from '../guards/contractHeaders';
import type { RequestHead } from '../guards/RequestHead';

/**
 * The JSON body of a request, at most `max` bytes: a declared length over `max` refused before
 * a byte is read (413), then read with `read` (which refuses past `max` as it goes), then
 * parsed (400 when it is not JSON). Its JSON media type was checked against the route's
 * contract headers (415).
 */
export async function readJsonBody(
  head: RequestHead,
  max: number,
  read: (max: number) => Promise<string>,
): Promise<unknown> {
  const declared = Number(requestHeader(head, 'content-length') ?? 0);
  if (declared > max) throw tooLarge(max);
  const text = await read(max);
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a text that could be over is encoded.
  if (text.length * 3 > max && new TextEncoder().encode(text).length > max) throw tooLarge(max);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProtocolError('invalid_request', 'The body is not valid JSON.');
  }
}

function tooLarge(max: number): ProtocolError {
  return new ProtocolError('payload_too_large', `This request's body is limited to ${max} bytes.`);
}

/**
 * Reads a Node request's body, refusing (413) as soon as more than `max` bytes arrived. A body
 * that came with its headers (a small JSON action: nearly always one read of the socket) is
 * taken whole from the request's buffer; one still arriving is read as it comes
 * ({@link readArriving}).
 */
export async function readIncoming(incoming: IncomingMessage, max: number): Promise<string> {
  // Node emits 'request' from its parser's headers callback and pushes the body after it, within
  // the same read of the socket: one microtask later a body sent with its headers is buffered
  // whole (its end is pushed later still). Reading it from the buffer spares the stream's
  // flowing mode (listeners, ticks and state objects per request; docs/PERFORMANCE.md).
  await undefined;
  const length = incoming.headers['content-length'];
  if (
    length === undefined ||
    incoming.readableFlowing !== null ||
    incoming.readableEnded ||
    incoming.readableLength !== Number(length)
  ) {
    return readArriving(incoming, max);
  }
  if (incoming.readableLength > max) throw tooLarge(max);
  const body = incoming.read() as Buffer | null;
  markBodyReadWhole(incoming);
  return body === null ? '' : body.toString('utf8');
}

/**
 * Reads a Node request's body straight from the socket's request (not through a web stream),
 * refusing (413) as soon as more than `max` bytes arrived. The listeners stay until the request
 * is dropped instead of being removed one by one: after the promise has settled they only drop
 * what still arrives.
 */
function readArriving(incoming: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    incoming.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        settled = true;
        chunks.length = 0;
        reject(tooLarge(max));
        return;
      }
      chunks.push(chunk);
    });
    incoming.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    // A client that goes away mid-body ends nothing: the handler must not wait forever.
    const gone = () => {
      if (settled) return;
      settled = true;
      reject(new ProtocolError('invalid_request', 'The request body did not arrive.'));
    };
    incoming.on('close', gone);
    incoming.on('error', gone);
  });
}
