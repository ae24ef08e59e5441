import { bearerHeaderSchema } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import { BridgeError } from '../errors/BridgeError';
import type { AccessCodes } from './AccessCodes';
import type { AuthThrottle } from './AuthThrottle';
import { requestHeader } from './contractHeaders';
import { clientAddress, throttleKey } from './rawHeaders';

/**
 * Requires `Authorization: Bearer <access code or view code>`, compared in constant time (both
 * sides are hashed first, so lengths never leak). Missing or wrong: 401 with
 * `WWW-Authenticate: Bearer`; repeated misses from one address, whichever code they aimed at:
 * 429 with Retry-After. Run in place by the front door: throws the refusal, or records the
 * presented code (so streams can be closed when it is rotated) and its level in the context. Routes name the level in their response (the access
 * header); the event stream, written straight to the socket, carries no such header: a client
 * learns its level from /api/state.
 */
export function authenticate(c: Context<BridgeEnv>, codes: AccessCodes, throttle: AuthThrottle): void {
  const client = throttleKey(clientAddress(c));
  const wait = throttle.retryAfter(client);
  if (wait > 0) {
    throw new BridgeError('rate_limited', 'Too many wrong access codes; wait before trying again.', {
      retryAfter: wait,
    });
  }
  const presented = bearerToken(requestHeader(c, 'authorization'));
  const access = presented === undefined ? undefined : codes.levelOf(presented);
  if (presented === undefined || access === undefined) {
    throw failure(throttle, client, presented === undefined);
  }
  throttle.success(client);
  c.set('accessCode', presented);
  c.set('access', access);
}

function failure(throttle: AuthThrottle, client: string, missing: boolean): BridgeError {
  if (!missing) throttle.failure(client);
  return new BridgeError(
    'unauthorized',
    missing ? 'Send the access code as a Bearer token.' : 'The access code is not valid.',
  );
}

/** The token of an Authorization header of the contract's `Bearer` form, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || !bearerHeaderSchema.safeParse(header).success) return undefined;
  return header.slice('Bearer'.length).trim();
}
