import { type Server, STATUS_CODES } from 'node:http';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { PROBLEM_CONTENT_TYPE, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import type { Hono } from 'hono';
import type { BridgeEnv } from '../env';
import { BridgeError } from '../errors/BridgeError';
import { problemBody } from '../errors/renderProblem';

/** Request-parsing bounds of the Node listener. */
const SERVER_OPTIONS = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  // Receiving a whole request (an upload over slow Wi-Fi) may take this long; responses
  // (the event stream) are not bounded by it.
  requestTimeout: 5 * 60_000,
  keepAliveTimeout: 5_000,
} as const;

/** How long open responses may take to finish when the listener closes. */
const CLOSE_GRACE_MS = 250;

/**
 * Node's own parser refuses some requests before Hono sees them; they get the protocol's
 * problem bodies too, with the code that says why.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const problem = problemBody(parserRefusal(error.code));
  const body = JSON.stringify(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${PROTOCOL_HEADER}: ${PROTOCOL_VERSION}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The protocol error for one of llhttp's or Node's refusal codes. */
export function parserRefusal(code: string | undefined): BridgeError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new BridgeError('header_too_large', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new BridgeError('request_timeout', 'The request did not arrive in time.');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new BridgeError('duplicate_header', 'The content-length header appears more than once.');
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new BridgeError(
        'chunked_not_allowed',
        'Send a Content-Length; Transfer-Encoding is not accepted.',
      );
    default:
      return new BridgeError('invalid_request', 'The request could not be parsed.');
  }
}

/** A started Node HTTP listener for the app. */
export interface NodeListener {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens with @hono/node-server on `hostname:port` (0 = any free port). */
export function listenNode(
  app: { fetch: Hono<BridgeEnv>['fetch'] },
  port: number,
  hostname: string,
): Promise<NodeListener> {
  const server = createAdaptorServer({ fetch: app.fetch, serverOptions: SERVER_OPTIONS }) as Server;
  server.on('clientError', answerClientError);
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
            server.closeIdleConnections();
            // Ended event streams get a moment to flush their last bytes; then whatever is
            // still open (a stalled upload, a client that never reads) is cut.
            setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
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
