import { connect, createServer, type Socket } from 'node:net';

/** A TCP relay between a client (a browser) and a host on loopback, whose network can die. */
export interface TcpRelay {
  /** The loopback port clients connect to. */
  readonly port: number;
  /**
   * The network stops carrying bytes without a word, as Wi-Fi that drops does: no FIN, no RST,
   * nothing either way on open connections, and new connections carry nothing either.
   */
  cut(): void;
  /**
   * The network comes back: what each side sent meanwhile is delivered (TCP kept it, as it
   * does over a link that drops and returns), and bytes flow again on every connection.
   */
  restore(): void;
  /**
   * Only the event streams' connections stop carrying bytes (as `cut` does to all): a page's
   * stream goes silent while its actions, on other connections, still reach the host and come
   * back. `restore` brings them back too.
   */
  cutEvents(): void;
  /** Connections open now. */
  readonly connections: number;
  /** Closes the relay and every connection. */
  close(): Promise<void>;
}

/**
 * Starts a relay on 127.0.0.1 to `127.0.0.1:target`. Freezing the page is the DevTools
 * protocol's job; this is the other way a phone loses its stream: a network that stops
 * forwarding silently, which no browser event reports and `context.setOffline` does not
 * emulate for a stream already open. Cutting pauses both sockets of every connection (the
 * relay reads nothing, so the senders' kernels hold what they write, as a dead link does).
 */
export async function startTcpRelay(target: number): Promise<TcpRelay> {
  let cut = false;
  const sockets = new Set<Socket>();
  /** Both sockets of every connection that carried a `GET /api/events`. */
  const streams = new Set<Socket>();
  /** Sockets `cutEvents` paused: they stay paused until `restore`. */
  const cutStreams = new Set<Socket>();
  const isCut = (socket: Socket) => cut || cutStreams.has(socket);
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    // Any request on the connection, not only its first: a browser reuses a kept-alive
    // connection for its event stream after other requests.
    client.on('data', (chunk: Buffer) => {
      if (!chunk.toString('latin1').startsWith('GET /api/events')) return;
      streams.add(client);
      streams.add(upstream);
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.on('error', () => undefined);
      if (cut) from.pause();
      from.on('data', (chunk) => {
        if (!to.write(chunk)) from.pause();
      });
      to.on('drain', () => {
        if (!isCut(from)) from.resume();
      });
      from.on('close', () => {
        sockets.delete(from);
        streams.delete(from);
        cutStreams.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('relay has no port');
  return {
    port: address.port,
    cut() {
      cut = true;
      for (const socket of sockets) socket.pause();
    },
    restore() {
      cut = false;
      cutStreams.clear();
      for (const socket of sockets) socket.resume();
    },
    cutEvents() {
      for (const socket of streams) {
        cutStreams.add(socket);
        socket.pause();
      }
    },
    get connections() {
      return sockets.size / 2;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
