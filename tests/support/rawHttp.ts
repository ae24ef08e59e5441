import { connect } from 'node:net';

/** A response read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Sends bytes exactly as given (duplicate headers, chunked bodies, foreign Host) and reads the
 * response until the server closes or `timeoutMs` passes. fetch cannot send such requests.
 */
export function rawRequest(
  port: number,
  head: string[],
  body: string | Buffer = '',
  timeoutMs = 5000,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      try {
        resolve(parseRawResponse(Buffer.concat(chunks).toString('latin1')));
      } catch (error) {
        reject(error);
      }
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // One response is all we need: stop once a complete problem body has arrived.
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split));
      if (split !== -1 && length && text.length - split - 4 >= Number(length[1])) socket.destroy();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    if (body.length > 0) socket.write(body);
  });
}

/** Parses one HTTP/1.1 response (status line, headers lower-cased, body cut to Content-Length). */
export function parseRawResponse(text: string): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) throw new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['content-length']) body = body.slice(0, Number(headers['content-length']));
  return { status, headers, body };
}
