import { MAX_JSON, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import type { ActionDispatcher } from './actions/ActionDispatcher';
import type { HostAdapter } from './adapter';
import { CA_CONTENT_TYPE } from './adapters/answerPlainHttp';
import type { BridgeEnv } from './env';
import { BridgeError } from './errors/BridgeError';
import { renderProblem } from './errors/renderProblem';
import type { EventHub } from './events/EventHub';
import type { AccessCodes } from './guards/AccessCodes';
import type { AuthThrottle } from './guards/AuthThrottle';
import { authGuard, controlOnly } from './guards/authGuard';
import { closeWhenUnread } from './guards/closeWhenUnread';
import { headerGuard } from './guards/headerGuard';
import { hostGuard } from './guards/hostGuard';
import { clientAddress, throttleKey } from './guards/rawHeaders';
import { describeError } from './logging/describeError';
import { requestLogger } from './logging/requestLogger';
import type { MediaRegistry } from './media/MediaRegistry';
import { mediaRoute } from './media/mediaRoute';
import type { WireMapper } from './media/toWire';
import { eventsRoute } from './routes/eventsRoute';
import { staticRoutes } from './routes/staticRoutes';
import { createTsRestHandler } from './routes/tsRestRoutes';
import { uploadRoute } from './upload/uploadRoute';

/** Everything the app's routes need; built once by `createBridge`. */
export interface AppDeps {
  readonly host: HostAdapter;
  readonly logger: Logger;
  readonly codes: AccessCodes;
  readonly throttle: AuthThrottle;
  readonly allowedHosts: () => ReadonlySet<string>;
  readonly hub: EventHub;
  readonly wire: WireMapper;
  readonly media: MediaRegistry;
  readonly dispatcher: ActionDispatcher;
  readonly heartbeatMs: number;
  readonly uploadDir: string;
  readonly uploadLimit: number;
  readonly staticDir: string | undefined;
  /** The local certificate authority's certificate (PEM), served at `/ca.crt` when there is one. */
  readonly authorityPem: () => string | undefined;
}

/** The methods of each API path, for 405 answers. */
const ALLOWED_METHODS: Readonly<Record<string, string>> = {
  '/api/locale': 'GET, HEAD',
  '/api/state': 'GET, HEAD',
  '/api/action': 'POST',
  '/api/events': 'GET, HEAD',
  '/api/upload': 'POST',
  '/api/media': 'GET, HEAD',
};

/** Paths that require the access code (or, for reading, the view code). */
const PROTECTED = ['/api/state', '/api/events', '/api/action', '/api/upload'] as const;
/** Paths that the view code may not use. */
const CONTROL_ONLY = ['/api/action', '/api/upload'] as const;

/** The local authority's certificate: public, so a device can fetch it before trusting it. */
function caCertificate(pem: string | undefined, head: boolean): Response {
  if (pem === undefined)
    return renderProblem(new BridgeError('not_found', 'This host serves no certificate authority.'));
  return new Response(head ? null : pem, {
    status: 200,
    headers: {
      'Content-Type': CA_CONTENT_TYPE,
      'Content-Disposition': 'attachment; filename="webbridge-ca.crt"',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * Builds the Hono app. Order matters: logging and protocol headers, raw-header checks, the
 * Host check, then auth and body limits, all before any route reads a body.
 */
export function createApp(deps: AppDeps): Hono<BridgeEnv> {
  const app = new Hono<BridgeEnv>();
  app.use('*', requestLogger(deps.logger));
  app.use('*', closeWhenUnread());
  // Outermost, so refusals by the guards below carry the protocol version too.
  app.use('/api/*', async (c, next) => {
    await next();
    c.res.headers.set(PROTOCOL_HEADER, String(PROTOCOL_VERSION));
    // Snapshots carry media ids, which are credentials: nothing of the API is cached.
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  });
  // Duplicates first: with two Host headers the Host check would only see the first.
  app.use('*', headerGuard());
  app.use('*', hostGuard(deps.allowedHosts));
  for (const path of PROTECTED) app.use(path, authGuard(deps.codes, deps.throttle));
  // A view code watches: it never acts or uploads.
  for (const path of CONTROL_ONLY) app.use(path, controlOnly());
  app.on(['GET', 'HEAD'], '/ca.crt', (c) => caCertificate(deps.authorityPem(), c.req.method === 'HEAD'));

  const tsRest = createTsRestHandler(deps);
  const viaTsRest = async (c: Context) => {
    // @hono/node-server's request object crashes ts-rest; hand it a standard Request.
    // ts-rest knows no HEAD: answer it as the GET without its body.
    const head = c.req.method === 'HEAD';
    const init: RequestInit = { method: head ? 'GET' : c.req.method, headers: c.req.raw.headers };
    if (c.req.method !== 'GET' && !head) init.body = await c.req.raw.arrayBuffer();
    const response = await tsRest(new Request(c.req.url, init), { client: throttleKey(clientAddress(c)) });
    return head ? new Response(null, { status: response.status, headers: response.headers }) : response;
  };
  app.get('/api/locale', viaTsRest);
  app.get('/api/state', viaTsRest);
  app.post(
    '/api/action',
    async (c, next) => {
      const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') {
        throw new BridgeError(
          'unsupported_media_type',
          'Actions are JSON: send Content-Type: application/json.',
        );
      }
      await next();
    },
    bodyLimit({
      maxSize: MAX_JSON,
      onError: () => {
        throw new BridgeError('payload_too_large', `Action bodies are limited to ${MAX_JSON} bytes.`);
      },
    }),
    viaTsRest,
  );
  app.get('/api/events', eventsRoute(deps));
  app.post('/api/upload', uploadRoute(deps));
  app.get('/api/media', mediaRoute(deps));
  app.all('/api/*', (c) => {
    const allow = ALLOWED_METHODS[c.req.path];
    if (allow === undefined) throw new BridgeError('not_found', 'There is no such route.');
    return renderProblem(new BridgeError('method_not_allowed', 'This route does not take that method.'), {
      Allow: allow,
    });
  });
  if (deps.staticDir) staticRoutes(app, deps.staticDir);

  app.notFound(() => renderProblem(new BridgeError('not_found', 'There is no such page.')));
  app.onError((error) => {
    if (!(error instanceof BridgeError)) deps.logger.error({ err: describeError(error) }, 'unhandled error');
    return renderProblem(error);
  });
  return app;
}
