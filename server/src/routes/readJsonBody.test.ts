import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readIncoming } from './readJsonBody';

const MAX = 100;

/** A Node server answering each request with what readIncoming read (or the refusal's code). */
async function echoServer(): Promise<{ server: Server; port: number }> {
  const server = createServer(async (req, res) => {
    const text = await readIncoming(req, MAX).catch((error: { code?: string }) => `refused ${error.code}`);
    // Percent-encoded between brackets, so the answers are easy to pick out of the raw stream.
    res.end(`<${encodeURIComponent(text)}>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Writes `parts` to one connection (a pause between them) and returns the answers' bodies. */
async function exchange(port: number, parts: string[], answers: number): Promise<string[]> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  const done = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if ((received.match(/>/g) ?? []).length >= answers) resolve();
    });
    socket.on('error', reject);
  });
  for (const part of parts) {
    socket.write(part);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await done;
  socket.destroy();
  return [...received.matchAll(/<([^>]*)>/g)].map((m) => decodeURIComponent(m[1]!));
}

const post = (body: string) =>
  `POST / HTTP/1.1\r\nHost: a\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('readIncoming', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('reads bodies that came with their headers, pipelined, empty or not ASCII', async () => {
    const started = await echoServer();
    server = started.server;
    const answers = await exchange(started.port, [post('{"a":1}') + post('') + post('{"é":"ü"}')], 3);
    expect(answers).toEqual(['{"a":1}', '', '{"é":"ü"}']);
  });

  it('reads a body that arrives after its headers, in pieces, and a chunked one', async () => {
    const started = await echoServer();
    server = started.server;
    const head = 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n';
    const chunked = 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n';
    // The first piece comes with the headers: what is buffered then is not the whole body.
    const answers = await exchange(
      started.port,
      [`${head}{"a":`, '123', '45}', chunked, '2\r\nde\r\n0\r\n\r\n'],
      2,
    );
    expect(answers).toEqual(['{"a":12345}', 'abcde']);
  });

  it('refuses a body over the limit whether it came whole or in pieces (413)', async () => {
    const started = await echoServer();
    server = started.server;
    const whole = await exchange(started.port, [post('x'.repeat(MAX + 1)) + post('{}')], 2);
    expect(whole).toEqual(['refused payload_too_large', '{}']);
    const head = `POST / HTTP/1.1\r\nHost: a\r\nContent-Length: ${MAX + 50}\r\n\r\n`;
    const pieces = await exchange(started.port, [head, 'x'.repeat(60), 'x'.repeat(90)], 1);
    expect(pieces).toEqual(['refused payload_too_large']);
  });
});
