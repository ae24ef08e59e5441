import { connect as connectTls } from 'node:tls';
import type { RawResponse } from './rawHttp';

/**
 * Sends bytes exactly as given over TLS to 127.0.0.1:`port`, trusting only `caPem` (the name
 * checked is 127.0.0.1, as a browser opening https://127.0.0.1 checks it), and reads one
 * response until the server closes, the declared body has arrived, or `timeoutMs` passes.
 * fetch cannot send a foreign Host header; this can. `servername`: the name asked for (SNI) and
 * checked instead (a proxy's name).
 */
export function tlsRawRequest(
  port: number,
  caPem: string,
  head: string[],
  body: string | Buffer = '',
  timeoutMs = 5000,
  servername?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({ port, host: '127.0.0.1', ca: caPem, ...(servername ? { servername } : {}) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, timeoutMs);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        resolve(parseRaw(Buffer.concat(chunks).toString('latin1')));
      } catch (error) {
        reject(error);
      }
    };
    socket.on('secureConnect', () => {
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      if (body.length > 0) socket.write(body);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split));
      if (split !== -1 && length && text.length - split - 4 >= Number(length[1])) {
        socket.destroy();
        finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', (error) => {
      if (chunks.length === 0 && !done) {
        done = true;
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

/** Parses one HTTP/1.1 response (status line, headers lower-cased, body cut to Content-Length). */
function parseRaw(text: string): RawResponse {
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
