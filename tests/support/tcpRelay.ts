import { connect, createServer, type Socket } from 'node:net';

/** A TCP relay between a client (a browser) and a host on loopback, whose network can die. */
export interface TcpRelay {
  /** The loopback port clients connect to. */
  readonly port: number;
  /**
   * The network dies without a word, as Wi-Fi does: no FIN, no RST. Open connections stay
   * open and carry nothing any more, either way; new connections are accepted and carry
   * nothing either.
   */
  cut(): void;
  /**
   * The network comes back. Connections from before the cut stay dead (as when a phone comes
   * back with another address): only new connections carry bytes again.
   */
  restore(): void;
  /** Connections forwarding now. */
  readonly live: number;
  /** Closes the relay and every connection. */
  close(): Promise<void>;
}

/**
 * Starts a relay on 127.0.0.1 to `127.0.0.1:target`. Freezing the page is the DevTools
 * protocol's job; this is the other way a phone loses its stream: a network that stops
 * forwarding silently, which no browser event reports and `context.setOffline` does not
 * emulate for a stream already open.
 */
export async function startTcpRelay(target: number): Promise<TcpRelay> {
  let cut = false;
  const forwarding = new Set<Socket>();
  const all = new Set<Socket>();
  const server = createServer((client) => {
    all.add(client);
    client.on('error', () => undefined);
    client.on('close', () => all.delete(client));
    // A connection opened while the network is down is a black hole for ever.
    if (cut) {
      client.on('data', () => undefined);
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    all.add(upstream);
    upstream.on('error', () => undefined);
    forwarding.add(client);
    const pair = [client, upstream] as const;
    for (const [from, to] of [pair, [upstream, client] as const]) {
      from.on('data', (chunk) => {
        // Bytes are read and dropped: the sender's writes succeed, nothing arrives.
        if (forwarding.has(client)) to.write(chunk);
      });
      from.on('close', () => {
        all.delete(from);
        // While cut, an end on one side never reaches the other (that is the point).
        if (forwarding.has(client)) {
          forwarding.delete(client);
          to.destroy();
        }
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
      forwarding.clear();
    },
    restore() {
      cut = false;
    },
    get live() {
      return forwarding.size;
    },
    async close() {
      for (const socket of all) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
