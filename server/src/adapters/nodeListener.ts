import type { Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';

/** Request-parsing bounds of the Node listener. */
const SERVER_OPTIONS = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  // Receiving a whole request (an upload over slow Wi-Fi) may take this long; responses
  // (the event stream) are not bounded by it.
  requestTimeout: 5 * 60_000,
  keepAliveTimeout: 5_000,
} as const;

/** A started Node HTTP listener for the app. */
export interface NodeListener {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens with @hono/node-server on `hostname:port` (0 = any free port). */
export function listenNode(app: Hono, port: number, hostname: string): Promise<NodeListener> {
  const server = createAdaptorServer({ fetch: app.fetch, serverOptions: SERVER_OPTIONS }) as Server;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Event streams and idle keep-alive sockets would hold close() open forever.
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Whether an address means "every interface". */
export function isWildcard(hostname: string): boolean {
  return hostname === '0.0.0.0' || hostname === '::' || hostname === '[::]';
}

/**
 * The names and addresses this server answers to: the bound address, loopback names when it
 * is loopback or wildcard, and every interface address when it is wildcard.
 */
export function ownHostnames(hostname: string): Set<string> {
  const names = new Set<string>(['localhost', '127.0.0.1', '[::1]']);
  const bound = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  if (!isWildcard(hostname)) {
    names.add(bound.toLowerCase());
    return names;
  }
  for (const address of lanAddresses(true)) names.add(address.includes(':') ? `[${address}]` : address);
  return names;
}

/** The machine's interface addresses (IPv4 first), optionally with loopback and IPv6. */
export function lanAddresses(all = false): string[] {
  const found: string[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (!all && (entry.internal || entry.family !== 'IPv4')) continue;
      found.push(entry.address.toLowerCase());
    }
  }
  return found;
}
