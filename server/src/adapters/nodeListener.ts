import { createServer as createHttpServer, type Server, STATUS_CODES } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { hostname as hostname_, networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { createAdaptorServer } from '@hono/node-server';
import {
  PROBLEM_CONTENT_TYPE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  ProtocolError,
  problemBody,
} from '@webbridge/contract';
import type { Hono } from 'hono';
import type { BridgeEnv } from '../env';
import type { NodeLane } from './actionLane';
import { answerPlainHttp, type PlainHttpContext } from './answerPlainHttp';
import { HARDENING_LINES, HardenedResponse } from './hardenResponse';
import { lingeringClose } from './lingeringClose';
import { frameNodeServer } from './nodeFraming';
import { sniffTls } from './sniffTls';

/** Request-parsing bounds of the Node listener. */
const SERVER_OPTIONS = {
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  // Receiving a whole request (an upload over slow Wi-Fi) may take this long; responses
  // (the event stream) are not bounded by it.
  requestTimeout: 5 * 60_000,
  keepAliveTimeout: 5_000,
  // How often Node checks the two timeouts above (default 30 s): a client that sends its
  // headers slowly (or nothing after a TLS handshake) is cut within ~11 s, not ~40 s.
  connectionsCheckingInterval: 1_000,
  // A request without Host goes on to the host guard, which answers problem+json, instead of
  // getting Node's bare 400.
  requireHostHeader: false,
  // Every answer carries the hardening headers (adapters/hardenResponse.ts), whoever writes it.
  ServerResponse: HardenedResponse,
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
  socket.write(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${PROTOCOL_HEADER}: ${PROTOCOL_VERSION}\r\n${HARDENING_LINES}Connection: close\r\n\r\n${body}`,
  );
  lingeringClose(socket);
}

/** The protocol error for one of llhttp's or Node's refusal codes. */
export function parserRefusal(code: string | undefined): ProtocolError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ProtocolError('header_too_large', 'The request headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProtocolError('request_timeout', 'The request did not arrive in time.');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new ProtocolError('duplicate_header', 'The content-length header appears more than once.');
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new ProtocolError(
        'chunked_not_allowed',
        'Send a Content-Length; Transfer-Encoding is not accepted.',
      );
    default:
      return new ProtocolError('invalid_request', 'The request could not be parsed.');
  }
}

/** A started Node HTTP listener for the app. */
export interface NodeListener {
  readonly server: Server;
  readonly port: number;
  /** Whether it speaks TLS. */
  readonly secure: boolean;
  /** Serves another certificate from now on (new addresses, renewal); TLS listeners only. */
  setCertificate(certificate: Pick<TlsServing, 'certificatePem' | 'keyPem'>): void;
  close(): Promise<void>;
}

/** The certificate a TLS listener serves, and how it answers plain HTTP on its port. */
export interface TlsServing {
  /** The serving certificate, followed by its chain (PEM). */
  readonly certificatePem: string;
  readonly keyPem: string;
  readonly plainHttp: PlainHttpContext;
}

/**
 * Forward-secret AEAD suites only: TLS 1.3's (AES-GCM and ChaCha20-Poly1305; Node leaves its
 * CCM suites off), and for TLS 1.2 ECDHE with AES-GCM or ChaCha20-Poly1305, for ECDSA keys
 * (the local authority's) and RSA ones (a person's own certificate). No CBC, CCM-8, ARIA,
 * Camellia or static-RSA key exchange, all of which Node's default list still offers.
 */
const TLS_CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/**
 * TLS bounds: no protocol older than 1.2, AEAD suites only (in our order of preference), and
 * a handshake must finish within 10 s.
 */
const TLS_OPTIONS = {
  minVersion: 'TLSv1.2',
  ciphers: TLS_CIPHERS,
  honorCipherOrder: true,
  handshakeTimeout: 10_000,
} as const;

/**
 * Listens with @hono/node-server on `hostname:port` (0 = any free port), over TLS when
 * `tls` is given; requests `lane` takes are served without Hono (adapters/actionLane.ts).
 */
export function listenNode(
  app: { fetch: Hono<BridgeEnv>['fetch'] },
  port: number,
  hostname: string,
  tls?: TlsServing,
  lane?: NodeLane,
  basePath?: string,
): Promise<NodeListener> {
  const server = tls
    ? (createAdaptorServer({
        fetch: app.fetch,
        createServer: createHttpsServer,
        serverOptions: { ...SERVER_OPTIONS, ...TLS_OPTIONS, cert: tls.certificatePem, key: tls.keyPem },
      }) as unknown as HttpsServer)
    : (createAdaptorServer({ fetch: app.fetch, serverOptions: SERVER_OPTIONS }) as Server);
  server.on('clientError', answerClientError);
  frameNodeServer(server, app.fetch, lane, basePath);
  let plainSockets: Set<Duplex> = new Set();
  if (tls) {
    const https = server as HttpsServer;
    // TLS 1.2 renegotiation lets a client make the server redo expensive work at will.
    https.on('secureConnection', (socket: TLSSocket) => socket.disableRenegotiation());
    https.on('tlsClientError', (_error, socket) => socket.destroy());
    const plain = createHttpServer(SERVER_OPTIONS, answerPlainHttp(tls.plainHttp));
    plain.on('clientError', answerClientError);
    plainSockets = sniffTls(https, plain, SERVER_OPTIONS.headersTimeout);
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: actual,
        secure: tls !== undefined,
        setCertificate(next) {
          if (!tls) throw new Error('This listener does not speak TLS.');
          (server as HttpsServer).setSecureContext({
            ...TLS_OPTIONS,
            cert: next.certificatePem,
            key: next.keyPem,
          });
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            for (const socket of plainSockets) socket.destroy();
            // Ended event streams get a moment to flush their last bytes; then whatever is
            // still open (a stalled upload, a client that never reads) is cut.
            setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
          }),
      });
    });
  });
}

/** Whether an address reaches this machine only (browsers treat it as a secure context). */
export function isLoopback(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
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
  // Its own name too (and mDNS's `<name>.local`): the serving certificate names them.
  const machine = hostname_()
    .toLowerCase()
    .replace(/\.local$/, '');
  if (/^[a-z0-9-]{1,63}$/.test(machine)) {
    names.add(machine);
    names.add(`${machine}.local`);
  }
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
