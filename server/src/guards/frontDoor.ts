import { ACCESS_HEADER, PROTOCOL_HEADER, PROTOCOL_VERSION } from '@webbridge/contract';
import type { MiddlewareHandler } from 'hono';
import type { BridgeEnv } from '../env';
import { BridgeError } from '../errors/BridgeError';
import type { AccessCodes } from './AccessCodes';
import type { AuthThrottle } from './AuthThrottle';
import { authenticate } from './authGuard';
import { bodyStillArriving } from './closeWhenUnread';
import { isControlOnly, isProtected, ROUTE_BY_PATH } from './contractHeaders';
import { checkHeaders } from './headerGuard';
import { checkHost } from './hostGuard';

/** What the front door checks against. */
export interface FrontDoorDeps {
  readonly allowedHosts: () => ReadonlySet<string>;
  readonly codes: AccessCodes;
  readonly throttle: AuthThrottle;
}

/**
 * Every guard of every request, in their order, as one middleware: raw header lines and
 * duplicates (before the Host check, which would only see the first of two Hosts), the Host,
 * then for the protected routes (every route the contract does not mark public) the code and
 * what it allows (the view code: no route but GETs). Each route then checks its other declared
 * headers against the contract (contractHeaders.ts). One layer instead of five keeps a
 * small request cheap; each check lives in its own guard file. Afterwards: API responses that
 * were not built with the API headers get them, and a response sent while the request body is
 * still arriving says `Connection: close` (both touch the response only when needed).
 */
export function frontDoor({ allowedHosts, codes, throttle }: FrontDoorDeps): MiddlewareHandler<BridgeEnv> {
  return async (c, next) => {
    checkHeaders(c);
    checkHost(c, allowedHosts());
    const path = c.req.path;
    const route = ROUTE_BY_PATH.get(path);
    if (route !== undefined && isProtected(route)) {
      authenticate(c, codes, throttle);
      if (isControlOnly(route) && c.get('access') !== 'control') {
        throw new BridgeError('view_only', 'This code can watch the session but not act on it.');
      }
    }
    await next();
    if (path.startsWith('/api/') && c.get('apiHeaders') !== true) {
      c.res.headers.set(PROTOCOL_HEADER, String(PROTOCOL_VERSION));
      // Snapshots carry media ids, which are credentials: nothing of the API is cached.
      if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
      const access = c.get('access');
      if (access !== undefined) c.res.headers.set(ACCESS_HEADER, access);
    }
    if (bodyStillArriving(c)) c.res.headers.set('Connection', 'close');
  };
}
