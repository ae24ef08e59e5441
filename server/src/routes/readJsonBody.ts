import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { BridgeError } from '../errors/BridgeError';
import { requestHeader } from '../guards/contractHeaders';
import { incomingOf } from '../guards/rawHeaders';

/**
 * The JSON body of a request, at most `max` bytes: a declared length over `max` refused before
 * a byte is read (413), then parsed (400 when it is not JSON). Its JSON media type was checked
 * by the front door against the route's contract headers (415). Under Node the body is read
 * straight from the socket's request, not through a web stream.
 */
export async function readJsonBody(c: Context, max: number): Promise<unknown> {
  const tooLarge = () => new BridgeError('payload_too_large', `Action bodies are limited to ${max} bytes.`);
  const declared = Number(requestHeader(c, 'content-length') ?? 0);
  if (declared > max) throw tooLarge();
  const incoming = incomingOf(c);
  const text = incoming ? await readIncoming(incoming, max, tooLarge) : await c.req.text();
  if (Buffer.byteLength(text) > max) throw tooLarge();
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeError('invalid_request', 'The body is not valid JSON.');
  }
}

function readIncoming(incoming: IncomingMessage, max: number, tooLarge: () => BridgeError): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        cleanup();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    };
    // A client that goes away mid-body ends nothing: the handler must not wait forever.
    const onClose = () => {
      cleanup();
      reject(new BridgeError('invalid_request', 'The request body did not arrive.'));
    };
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('close', onClose);
      incoming.off('error', onClose);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('close', onClose);
    incoming.on('error', onClose);
  });
}
