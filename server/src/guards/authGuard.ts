import { type AccessLevel, bearerHeaderSchema, fastParser, ProtocolError } from '@webbridge/contract';
import type { Devices } from '../devices/Devices';
import type { AccessCodes } from './AccessCodes';
import type { AuthThrottle } from './AuthThrottle';
import { requestHeader } from './contractHeaders';
import type { RequestHead } from './RequestHead';
import { clientAddress } from './rawHeaders';
import { throttleKey } from './throttleKey';

/** The code or device credential a request presented (never logged) and what it allows. */
export interface Admitted {
  readonly accessCode: string;
  readonly access: AccessLevel;
  /** The paired device whose credential was presented; absent for the access or view code. */
  readonly device?: { readonly id: string; readonly name: string } | undefined;
}

/**
 * Requires `Authorization: Bearer <access code, view code or device credential>`, compared in
 * constant time (both sides are hashed first, so lengths never leak; a device credential is
 * checked against its device's kept hash, devices/Devices.ts), with the level of the code or of
 * the device's role. Missing or wrong: 401 with
 * `WWW-Authenticate: Bearer`; repeated misses from one address, whichever code they aimed at:
 * 429 with Retry-After. Run in place by the front door: throws the refusal, or returns the
 * presented code (so streams can be closed when it is rotated) and its level. Routes name the
 * level in their response (the access header); the event stream, written straight to the
 * socket, carries no such header: a client learns its level from /api/state.
 */
export function authenticate(
  head: RequestHead,
  codes: AccessCodes,
  throttle: AuthThrottle,
  devices?: Devices,
): Admitted {
  const client = throttleKey(clientAddress(head));
  const wait = throttle.retryAfter(client);
  if (wait > 0) {
    throw new ProtocolError('rate_limited', 'Too many wrong access codes; wait before trying again.', {
      retryAfter: wait,
    });
  }
  const presented = bearerToken(requestHeader(head, 'authorization'));
  if (presented === undefined) throw failure(throttle, client, true);
  const access = codes.levelOf(presented);
  // Only a controlling credential clears the count of failures: a view code (or view device),
  // which its holder knows, must not reset the guesses at the access code between tries.
  if (access !== undefined) {
    if (access === 'control') throttle.success(client);
    return { accessCode: presented, access };
  }
  const device = devices?.verify(presented);
  if (device === undefined) throw failure(throttle, client, false);
  if (device.role === 'control') throttle.success(client);
  return { accessCode: presented, access: device.role, device: { id: device.id, name: device.name } };
}

function failure(throttle: AuthThrottle, client: string, missing: boolean): ProtocolError {
  if (!missing) throttle.failure(client);
  return new ProtocolError(
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
