import { type AccessLevel, contract, ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';
import type { Devices } from '../devices/Devices';
import type { PairingRate } from '../devices/PairingRate';
import type { PairingTokens } from '../devices/PairingTokens';
import type { BridgeEnv } from '../env';
import type { AccessCodes } from '../guards/AccessCodes';
import type { AuthThrottle } from '../guards/AuthThrottle';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import { clientAddress } from '../guards/rawHeaders';
import { throttleKey } from '../guards/throttleKey';
import { bodyOf, contractBody } from './contractBody';
import { respond } from './respond';

/** A pairing body is a token or a code and a name: a few hundred bytes. */
const MAX_PAIR_BODY = 4096;

/** What POST /api/pair needs. */
export interface PairDeps {
  readonly codes: AccessCodes;
  readonly throttle: AuthThrottle;
  readonly devices: Devices;
  readonly tokens: PairingTokens;
  /** How often one client may pair successfully. */
  readonly pairings: PairingRate;
}

/**
 * POST /api/pair (public): a one-time pairing token (from a link or QR code) or the access or
 * view code (typed on the connection page), with a device name, for a device credential with
 * the role of whoever minted the token or of the code. Throttled twice per client key: with the
 * access code's throttle (every refused try counts, and a locked-out address gets 429 before
 * its token or code is looked at), and by {@link PairingRate} on success (a pairing spends from
 * a small bucket, so a loop of pair and forget is slowed). A spent or expired token gets a 401
 * whose code says so; a name taken or too many devices a 422, and the token stays unspent.
 */
export function pairRoute(deps: PairDeps) {
  const checkHeaders = headerCheck(contract.pair);
  const body = contractBody(contract.pair.body, {
    max: MAX_PAIR_BODY,
    detail: 'Send { token, name } or { code, name }.',
  });
  return async (c: Context<BridgeEnv>) => {
    const head = headOf(c);
    checkHeaders(head);
    const client = throttleKey(clientAddress(head));
    refuseWhileLocked(deps, client);
    const request = await body(head, bodyOf(c));
    // Again after the body: many connections that sent their headers before any failure was
    // counted would otherwise each get a guess inside one lockout. From here to the count of
    // this try's outcome nothing awaits.
    refuseWhileLocked(deps, client);
    let role: AccessLevel;
    try {
      role = 'token' in request ? deps.tokens.check(request.token) : codeLevel(deps.codes, request.code);
    } catch (error) {
      deps.throttle.failure(client);
      throw error;
    }
    // Only the access code (or a control token) clears the count: a view code, which its
    // holder knows, must not reset the guesses at the access code.
    if (role === 'control') deps.throttle.success(client);
    // Checked before the token is spent: a refused name leaves the link good for another try.
    deps.devices.admit(request.name);
    if ('token' in request) deps.tokens.redeem(request.token);
    deps.pairings.spend(client);
    return respond(c, contract.pair, { status: 200, body: deps.devices.pair(request.name, role) });
  };
}

/** 429 while `client` is locked out, or has paired too often of late. */
function refuseWhileLocked(deps: PairDeps, client: string): void {
  const wait = deps.throttle.retryAfter(client);
  if (wait > 0) {
    throw new ProtocolError(
      'rate_limited',
      'Too many wrong codes or pairing links; wait before trying again.',
      {
        retryAfter: wait,
      },
    );
  }
  const pause = deps.pairings.retryAfter(client);
  if (pause > 0) {
    throw new ProtocolError(
      'rate_limited',
      'This address paired many devices just now; wait before pairing again.',
      {
        retryAfter: pause,
      },
    );
  }
}

function codeLevel(codes: AccessCodes, code: string): AccessLevel {
  const level = codes.levelOf(code);
  if (level === undefined) throw new ProtocolError('unauthorized', 'The access code is not valid.');
  return level;
}
