import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { BridgeEnv } from '../env';
import { BridgeError } from '../errors/BridgeError';
import type { AuthThrottle } from './AuthThrottle';
import { clientAddress, throttleKey } from './rawHeaders';

/** The access code as the guard holds it: changeable at run time. */
export interface AccessCodeHolder {
  current(): string;
}

/**
 * Requires `Authorization: Bearer <current access code>`, compared in constant time (both
 * sides are hashed first, so lengths never leak). Missing or wrong: 401 with
 * `WWW-Authenticate: Bearer`; repeated misses from one address: 429 with Retry-After.
 * On success the code the request used is kept in the context as `accessCode`, so streams
 * can be closed when it is rotated.
 */
export function authGuard(code: AccessCodeHolder, throttle: AuthThrottle): MiddlewareHandler<BridgeEnv> {
  return async (c, next) => {
    const client = throttleKey(clientAddress(c));
    const wait = throttle.retryAfter(client);
    if (wait > 0) {
      throw new BridgeError('rate_limited', 'Too many wrong access codes; wait before trying again.', {
        retryAfter: wait,
      });
    }
    const presented = bearerToken(c.req.header('authorization'));
    if (presented === undefined || !sameSecret(presented, code.current())) {
      throw failure(throttle, client, presented === undefined);
    }
    throttle.success(client);
    c.set('accessCode', presented);
    await next();
  };
}

function failure(throttle: AuthThrottle, client: string, missing: boolean): BridgeError {
  if (!missing) throttle.failure(client);
  return new BridgeError(
    'unauthorized',
    missing ? 'Send the access code as a Bearer token.' : 'The access code is not valid.',
  );
}

/** The token of a `Bearer` Authorization header, or undefined for any other form. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+([^\s,]+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
