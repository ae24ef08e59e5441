import { type AccessLevel, contract, ProtocolError, pairRequestSchema } from '@webbridge/contract';
import type { Context } from 'hono';
import type { Devices } from '../devices/Devices';
import type { PairingTokens } from '../devices/PairingTokens';
import type { BridgeEnv } from '../env';
import type { AccessCodes } from '../guards/AccessCodes';
import type { AuthThrottle } from '../guards/AuthThrottle';
import { headerCheck } from '../guards/contractHeaders';
import { headOf, incomingOf } from '../guards/RequestHead';
import { clientAddress } from '../guards/rawHeaders';
import { throttleKey } from '../guards/throttleKey';
import { readIncoming, readJsonBody } from './readJsonBody';
import { respond } from './respond';

/** A pairing body is a token or a code and a name: a few hundred bytes. */
const MAX_PAIR_BODY = 4096;

/** What POST /api/pair needs. */
export interface PairDeps {
  readonly codes: AccessCodes;
  readonly throttle: AuthThrottle;
  readonly devices: Devices;
  readonly tokens: PairingTokens;
}

/**
 * POST /api/pair (public): a one-time pairing token (from a link or QR code) or the access or
 * view code (typed on the connection page), with a device name, for a device credential with
 * the role of whoever minted the token or of the code. Throttled with the access code's
 * throttle: every refused try counts, and a locked-out address gets 429 before its token or
 * code is looked at. A spent or expired token gets a 401 whose code says so.
 */
export function pairRoute(deps: PairDeps) {
  const checkHeaders = headerCheck(contract.pair);
  return async (c: Context<BridgeEnv>) => {
    const head = headOf(c);
    checkHeaders(head);
    const client = throttleKey(clientAddress(head));
    refuseWhileLocked(deps.throttle, client);
    const incoming = incomingOf(c);
    const read = incoming ? (max: number) => readIncoming(incoming, max) : () => c.req.text();
    const parsed = pairRequestSchema.safeParse(await readJsonBody(head, MAX_PAIR_BODY, read));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
      throw new ProtocolError('invalid_request', 'Send { token, name } or { code, name }.', { issues });
    }
    // Again after the body: many connections that sent their headers before any failure was
    // counted would otherwise each get a guess inside one lockout. From here to the count of
    // this try's outcome nothing awaits.
    refuseWhileLocked(deps.throttle, client);
    let role: AccessLevel;
    try {
      role =
        'token' in parsed.data
          ? deps.tokens.redeem(parsed.data.token)
          : codeLevel(deps.codes, parsed.data.code);
    } catch (error) {
      deps.throttle.failure(client);
      throw error;
    }
    // Only the access code (or a control token) clears the count: a view code, which its
    // holder knows, must not reset the guesses at the access code.
    if (role === 'control') deps.throttle.success(client);
    return respond(c, contract.pair, { status: 200, body: deps.devices.pair(parsed.data.name, role) });
  };
}

/** 429 while `client` is locked out. */
function refuseWhileLocked(throttle: AuthThrottle, client: string): void {
  const wait = throttle.retryAfter(client);
  if (wait > 0) {
    throw new ProtocolError(
      'rate_limited',
      'Too many wrong codes or pairing links; wait before trying again.',
      {
        retryAfter: wait,
      },
    );
  }
}

function codeLevel(codes: AccessCodes, code: string): AccessLevel {
  const level = codes.levelOf(code);
  if (level === undefined) throw new ProtocolError('unauthorized', 'The access code is not valid.');
  return level;
}
