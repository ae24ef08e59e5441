import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay to a loopback port whose event streams can be made to go silent. */
export interface StallingRelay {
  readonly port: number;
  /**
   * Stops forwarding what the host sends on every connection that carried `GET /api/events`:
   * the page's stream goes silent as over Wi-Fi that dropped without a word, while its other
   * requests (actions) still reach the host and come back.
   */
  stallEvents(): void;
  close(): Promise<void>;
}

/** Starts a {@link StallingRelay} to 127.0.0.1:`target`. */
export async function startStallingRelay(target: number): Promise<StallingRelay> {
  const sockets = new Set<Socket>();
  const streams = new Set<Socket>();
  const stalled = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (chunk.toString('latin1').startsWith('GET /api/events')) streams.add(client);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!stalled.has(client)) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay has no port');
  return {
    port: address.port,
    stallEvents() {
      for (const socket of streams) stalled.add(socket);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
