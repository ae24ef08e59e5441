import { connect as connectTls } from 'node:tls';
import { parseRawResponse, type RawResponse } from './rawHttp';

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
        resolve(parseRawResponse(Buffer.concat(chunks).toString('latin1')));
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
