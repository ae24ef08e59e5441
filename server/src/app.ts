import { contract, ProtocolError } from '@webbridge/contract';
import { type Context, Hono } from 'hono';
import type { Logger } from 'pino';
import type { ActionDispatcher } from './actions/ActionDispatcher';
import { CA_CONTENT_TYPE } from './adapters/answerPlainHttp';
import type { Devices } from './devices/Devices';
import type { PairingRate } from './devices/PairingRate';
import type { PairingTokens } from './devices/PairingTokens';
import type { BridgeEnv } from './env';
import { renderProblem } from './errors/renderProblem';
import type { EventHub } from './events/EventHub';
import type { BridgeFiles } from './files/BridgeFiles';
import type { AccessCodes } from './guards/AccessCodes';
import type { AuthThrottle } from './guards/AuthThrottle';
import type { TrustedProxies } from './guards/clientAddress';
import { frontDoor } from './guards/frontDoor';
import { headOf } from './guards/RequestHead';
import type { HostAdapter } from './HostAdapter';
import { describeError } from './logging/describeError';
import { requestLogger } from './logging/requestLogger';
import type { MediaRegistry } from './media/MediaRegistry';
import { mediaRoute } from './media/mediaRoute';
import type { WireMapper } from './media/WireMapper';
import { actionRoute } from './routes/actionRoute';
import { refusalHeaders } from './routes/apiHeaders';
import { devicesRoute, forgetDeviceRoute } from './routes/devicesRoute';
import { eventsRoute } from './routes/eventsRoute';
import { localeRoute } from './routes/localeRoute';
import { pairRoute } from './routes/pairRoute';
import { pushDecideRoute } from './routes/pushDecideRoute';
import { stateRoute } from './routes/stateRoute';
import { uploadRoute } from './upload/uploadRoute';

/** Everything the app's routes need; built once by `createBridge`. */
export interface AppDeps {
  readonly host: HostAdapter;
  readonly logger: Logger;
  readonly codes: AccessCodes;
  readonly throttle: AuthThrottle;
  readonly devices: Devices;
  readonly tokens: PairingTokens;
  /** How often one client may pair successfully (POST /api/pair). */
  readonly pairings: PairingRate;
  /** Forgets a device and ends what it held (streams, media ids); false when it is unknown. */
  readonly forgetDevice: (id: string) => boolean;
  readonly allowedHosts: () => ReadonlySet<string>;
  /** The proxies whose forwarded headers count (clientAddress.ts). */
  readonly proxies: TrustedProxies;
  readonly hub: EventHub;
  readonly wire: WireMapper;
  readonly media: MediaRegistry;
  readonly dispatcher: ActionDispatcher;
  readonly heartbeatMs: number;
  /** Uploads and media: the disk behind Node (adapters/nodeFiles.ts), memory in a page. */
  readonly files: BridgeFiles;
  readonly uploadLimit: number;
  /** Adds the routes of the built web client, last (behind Node: routes/staticRoutes.ts). */
  readonly serveStatic: ((app: Hono<BridgeEnv>) => void) | undefined;
  /** The local certificate authority's certificate (PEM), served at `/ca.crt` when there is one. */
  readonly authorityPem: () => string | undefined;
}

/** The methods of each API path, for 405 answers. */
const ALLOWED_METHODS: Readonly<Record<string, string>> = {
  [contract.locale.path]: 'GET, HEAD',
  [contract.state.path]: 'GET, HEAD',
  [contract.action.path]: 'POST',
  [contract.events.path]: 'GET, HEAD',
  [contract.upload.path]: 'POST',
  [contract.media.path]: 'GET, HEAD',
  [contract.pushDecide.path]: 'POST',
  [contract.pair.path]: 'POST',
  [contract.devices.path]: 'GET',
  [contract.forgetDevice.path]: 'POST',
};

/**
 * A refusal as problem+json with the API's refusal headers (routes/apiHeaders.ts) and those
 * set on the way (`Allow`).
 */
function problemOf(c: Context<BridgeEnv>, error: unknown, extra: Record<string, string> = {}): Response {
  c.set('apiHeaders', true);
  return renderProblem(error, { ...refusalHeaders(headOf(c), c.get('access')), ...extra });
}

/** The local authority's certificate: public, so a device can fetch it before trusting it. */
function caCertificate(pem: string | undefined, head: boolean): Response {
  if (pem === undefined)
    return renderProblem(new ProtocolError('not_found', 'This host serves no certificate authority.'));
  return new Response(head ? null : pem, {
    status: 200,
    headers: {
      'Content-Type': CA_CONTENT_TYPE,
      'Content-Disposition': 'attachment; filename="webbridge-ca.crt"',
      'Cache-Control': 'no-store',
    },
  });
}

/**
 * Builds the Hono app. Order matters: the request log, then the front door (raw headers, the
 * Host check, the code and what it allows), all before any route reads a body.
 */
export function createApp(deps: AppDeps): Hono<BridgeEnv> {
  const app = new Hono<BridgeEnv>();
  // A log line per request costs more than a small request itself; skip the layer when off.
  if (deps.logger.isLevelEnabled('info')) app.use('*', requestLogger(deps.logger));
  app.use('*', frontDoor(deps));
  app.on(['GET', 'HEAD'], '/ca.crt', (c) => caCertificate(deps.authorityPem(), c.req.method === 'HEAD'));

  app.on(['GET', 'HEAD'], contract.locale.path, localeRoute(deps.host));
  app.on(['GET', 'HEAD'], contract.state.path, stateRoute(deps.hub, deps.wire));
  app.post(contract.action.path, actionRoute(deps.dispatcher));
  app.get(contract.events.path, eventsRoute(deps));
  app.post(contract.upload.path, uploadRoute(deps));
  app.get(contract.media.path, mediaRoute(deps));
  app.post(contract.pushDecide.path, pushDecideRoute(deps.host));
  app.post(contract.pair.path, pairRoute(deps));
  app.get(contract.devices.path, devicesRoute(deps.devices));
  app.post(contract.forgetDevice.path, forgetDeviceRoute(deps.forgetDevice));
  app.all('/api/*', (c) => {
    const allow = ALLOWED_METHODS[c.req.path];
    if (allow === undefined) throw new ProtocolError('not_found', 'There is no such route.');
    return problemOf(c, new ProtocolError('method_not_allowed', 'This route does not take that method.'), {
      Allow: allow,
    });
  });
  deps.serveStatic?.(app);

  app.notFound((c) => problemOf(c, new ProtocolError('not_found', 'There is no such page.')));
  app.onError((error, c) => {
    if (!(error instanceof ProtocolError))
      deps.logger.error({ err: describeError(error) }, 'unhandled error');
    return problemOf(c, error);
  });
  return app;
}
