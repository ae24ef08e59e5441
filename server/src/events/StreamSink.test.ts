import { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { nodeResponseSink } from './StreamSink';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A connected TCP pair on loopback: the server's side and what the client side receives. */
async function socketPair(): Promise<{ serverSide: Socket; received: () => string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const client = connect((server.address() as { port: number }).port, '127.0.0.1');
  let received = '';
  client.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  const serverSide = await accepted;
  cleanups.push(() => {
    client.destroy();
    serverSide.destroy();
    server.close();
  });
  return { serverSide, received: () => received };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

// A keep-alive client may ask for the event stream on a connection whose previous response
// Node is still finishing: the new response gets its socket only afterwards. The sink must
// neither fail (which turned into a second set of headers and a dropped connection) nor lose
// what it writes meanwhile.
it('a response that gets its socket later still sends its headers and every frame, unframed', async () => {
  const { serverSide, received } = await socketPair();
  const request = new IncomingMessage(serverSide);
  request.method = 'GET';
  request.httpVersionMajor = 1;
  request.httpVersionMinor = 1;
  const response = new ServerResponse(request);
  expect(response.socket).toBeNull();

  const sink = nodeResponseSink(response, { 'Content-Type': 'text/event-stream' });
  sink.write(Buffer.from('data:one\n\n'));
  response.assignSocket(serverSide);
  sink.write(Buffer.from('data:two\n\n'));
  await until(() => received().includes('data:two'));

  const [head, body] = received().split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
  expect(head).toMatch(/content-type: text\/event-stream/i);
  expect(head).not.toMatch(/transfer-encoding/i);
  expect(body).toBe('data:one\n\ndata:two\n\n');
  sink.end();
});
