import { ACCESS_HEADER, PROTOCOL_HEADER, PROTOCOL_VERSION, ProtocolError } from '@webbridge/contract';
import type { MiddlewareHandler } from 'hono';
import type { Devices } from '../devices/Devices';
import type { BridgeEnv } from '../env';
import type { AccessCodes } from './AccessCodes';
import type { AuthThrottle } from './AuthThrottle';
import { type Admitted, authenticate } from './authGuard';
import type { TrustedProxies } from './clientAddress';
import { bodyStillArriving } from './closeWhenUnread';
import { isControlOnly, isProtected, ROUTE_BY_PATH } from './contractHeaders';
import { checkHeaders } from './headerGuard';
import { checkForwardedHost, checkHost } from './hostGuard';
import { headOf, type RequestHead } from './RequestHead';

/** What the front door checks against. */
export interface FrontDoorDeps {
  readonly allowedHosts: () => ReadonlySet<string>;
  readonly codes: AccessCodes;
  readonly throttle: AuthThrottle;
  /** The paired devices, whose credentials are accepted where the code is. */
  readonly devices?: Devices;
  /** The proxies whose forwarded headers count; none when absent. */
  readonly proxies?: TrustedProxies;
}

/**
 * Every guard of every request, in their order: raw header lines and duplicates (before the
 * Host check, which would only see the first of two Hosts), the Host, then for the protected
 * routes (every route the contract does not mark public) the code. Behind a trusted proxy the
 * real client is resolved first (clientAddress.ts) and the name it asked for is checked too. Throws the refusal; returns
 * what the code allows, or undefined on a public route. Each check lives in its own guard file;
 * each route then checks its other declared headers against the contract (contractHeaders.ts).
 * Both ways a request travels call this: the Hono middleware below and the Node listener's
 * action lane (adapters/actionLane.ts).
 */
export function admit(head: RequestHead, path: string, deps: FrontDoorDeps): Admitted | undefined {
  checkHeaders(head);
  const allowed = deps.allowedHosts();
  checkHost(head, allowed);
  // Once per request, before anything reads the client's address (throttle, streams, devices).
  const forwardedHost = deps.proxies?.resolve(head)?.host;
  if (forwardedHost !== undefined) checkForwardedHost(forwardedHost, allowed);
  const route = ROUTE_BY_PATH.get(path);
  if (route === undefined || !isProtected(route)) return undefined;
  return authenticate(head, deps.codes, deps.throttle, deps.devices);
}

/**
 * The view code may watch, not act: refused (403 `view_only`) on every route that changes
 * something. Separate from {@link admit} so the refusal can name the level it saw.
 */
export function refuseViewOnly(path: string, admitted: Admitted | undefined): void {
  const route = ROUTE_BY_PATH.get(path);
  if (
    route !== undefined &&
    admitted !== undefined &&
    admitted.access !== 'control' &&
    isControlOnly(route)
  ) {
    throw new ProtocolError('view_only', 'This code or device can watch the session but not act on it.');
  }
}

/**
 * The front door as Hono middleware: {@link admit}, with what the code allows recorded in the
 * context for the routes. One layer instead of five keeps a small request cheap. Afterwards:
 * API responses that were not built with the API headers get them, and a response sent while
 * the request body is still arriving says `Connection: close` (both touch the response only
 * when needed).
 */
export function frontDoor(deps: FrontDoorDeps): MiddlewareHandler<BridgeEnv> {
  return async (c, next) => {
    const head = headOf(c);
    const path = c.req.path;
    const admitted = admit(head, path, deps);
    if (admitted !== undefined) {
      c.set('accessCode', admitted.accessCode);
      c.set('access', admitted.access);
      if (admitted.device) c.set('device', admitted.device);
    }
    refuseViewOnly(path, admitted);
    await next();
    if (path.startsWith('/api/') && c.get('apiHeaders') !== true) {
      c.res.headers.set(PROTOCOL_HEADER, String(PROTOCOL_VERSION));
      // Snapshots carry media ids, which are credentials: nothing of the API is cached.
      if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
      const access = c.get('access');
      if (access !== undefined) c.res.headers.set(ACCESS_HEADER, access);
    }
    if (bodyStillArriving(head)) c.res.headers.set('Connection', 'close');
  };
}
