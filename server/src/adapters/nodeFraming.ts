import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import { renderProblem } from '../errors/renderProblem';
import { MAX_HEADER_LINES } from '../guards/headerGuard';
import { UNREADABLE_HEADERS, unreadableRequest } from '../guards/readableHost';
import type { NodeLane } from './actionLane';
import { mountUnder } from './basePath';
import { lingerOnClose } from './lingeringClose';

/** The app's fetch, as @hono/node-server calls it. */
type Fetch = Parameters<typeof getRequestListener>[0];

/**
 * Stands in for a missing Host header in the URL the adapter builds, so that such a request
 * reaches the app and its host guard refuses it like any other (a reserved name, RFC 2606).
 */
const NO_HOST = 'host.invalid';

/**
 * Applies the request-framing rules to a Node HTTP(S) server serving `fetch`:
 * - Node keeps at most {@link MAX_HEADER_LINES} header lines, the bound the header guard
 *   refuses at (by default Node keeps about 1,000 and drops the rest unseen);
 * - a request the adapter cannot turn into a URL (a target that is not a path, a backslash,
 *   a malformed Host) gets a problem+json answer instead of the adapter's bare 400;
 * - a request without Host reaches the host guard (with the server option
 *   `requireHostHeader: false`, Node's own bare 400 is skipped too);
 * - an `Expect` other than `100-continue` is ignored, as RFC 9110 allows, rather than
 *   answered with Node's bare 417; a CONNECT gets the server's answer to an unparsable
 *   request (its `clientError` handler) instead of a dropped connection;
 * - connections Node closes are closed gracefully ({@link lingerOnClose});
 * - a request `lane` takes (adapters/actionLane.ts) is served on Node's request and response;
 *   every other goes to Hono.
 */
export function frameNodeServer(
  server: HttpServer | HttpsServer,
  fetch: Fetch,
  lane?: NodeLane,
  basePath?: string,
): void {
  server.maxHeadersCount = MAX_HEADER_LINES;
  // createAdaptorServer passes no errorHandler to its listener, so it is replaced by one that has it.
  server.removeAllListeners('request');
  const hono = getRequestListener(fetch, { hostname: NO_HOST, errorHandler: unreadable });
  const served =
    lane === undefined
      ? hono
      : (req: IncomingMessage, res: ServerResponse) => {
          if (!lane(req, res)) void hono(req, res);
        };
  server.on(
    'request',
    basePath === undefined
      ? served
      : (req: IncomingMessage, res: ServerResponse) => {
          if (!mountUnder(req, res, basePath)) void served(req, res);
        },
  );
  server.prependListener('request', (req: IncomingMessage) => lingerOnClose(req.socket));
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    server.emit('request', req, res),
  );
  // Without a listener Node drops a CONNECT silently; this server is no proxy, and says so
  // the way it refuses any request it cannot parse.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    server.emit(
      'clientError',
      Object.assign(new Error('CONNECT is not served'), { code: 'ERR_CONNECT' }),
      socket,
    );
  });
}

function unreadable(): Response {
  return renderProblem(unreadableRequest(), UNREADABLE_HEADERS);
}
