import { type AccessLevel, bearerHeaderSchema, fastParser } from '@webbridge/contract';
import { BridgeError } from '../errors/BridgeError';
import type { AccessCodes } from './AccessCodes';
import type { AuthThrottle } from './AuthThrottle';
import { requestHeader } from './contractHeaders';
import type { RequestHead } from './RequestHead';
import { clientAddress, throttleKey } from './rawHeaders';

/** The code a request presented (never logged) and what it allows. */
export interface Admitted {
  readonly accessCode: string;
  readonly access: AccessLevel;
}

/**
 * Requires `Authorization: Bearer <access code or view code>`, compared in constant time (both
 * sides are hashed first, so lengths never leak). Missing or wrong: 401 with
 * `WWW-Authenticate: Bearer`; repeated misses from one address, whichever code they aimed at:
 * 429 with Retry-After. Run in place by the front door: throws the refusal, or returns the
 * presented code (so streams can be closed when it is rotated) and its level. Routes name the
 * level in their response (the access header); the event stream, written straight to the
 * socket, carries no such header: a client learns its level from /api/state.
 */
export function authenticate(head: RequestHead, codes: AccessCodes, throttle: AuthThrottle): Admitted {
  const client = throttleKey(clientAddress(head));
  const wait = throttle.retryAfter(client);
  if (wait > 0) {
    throw new BridgeError('rate_limited', 'Too many wrong access codes; wait before trying again.', {
      retryAfter: wait,
    });
  }
  const presented = bearerToken(requestHeader(head, 'authorization'));
  const access = presented === undefined ? undefined : codes.levelOf(presented);
  if (presented === undefined || access === undefined) {
    throw failure(throttle, client, presented === undefined);
  }
  throttle.success(client);
  return { accessCode: presented, access };
}

function failure(throttle: AuthThrottle, client: string, missing: boolean): BridgeError {
  if (!missing) throttle.failure(client);
  return new BridgeError(
    'unauthorized',
    missing ? 'Send the access code as a Bearer token.' : 'The access code is not valid.',
  );
}

/** The contract's `Bearer` form, tested without zod's walk when it holds (fastAccept.ts). */
const parseBearer = fastParser(bearerHeaderSchema);

/** The token of an Authorization header of the contract's `Bearer` form, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || !parseBearer(header).success) return undefined;
  return header.slice('Bearer'.length).trim();
}
