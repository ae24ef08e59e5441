import { contract, ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import type { HostAdapter } from '../HostAdapter';
import { bodyOf, contractBody } from './contractBody';
import { respond } from './respond';

/** A token and a decision are a few dozen bytes; nothing larger is read. */
const MAX_DECISION_BYTES = 1024;

/**
 * POST /api/push/decide: a service worker answers an approval from its notification with the
 * approval token the push carried. Public (no Bearer): the token is the credential, valid for
 * that one approval, once. Its body is never logged. Without a push-capable host: 404.
 */
export function pushDecideRoute(host: HostAdapter) {
  const checkHeaders = headerCheck(contract.pushDecide);
  const body = contractBody(contract.pushDecide.body, { max: MAX_DECISION_BYTES });
  return async (c: Context<BridgeEnv>) => {
    const head = headOf(c);
    checkHeaders(head);
    const { token, decision } = await body(head, bodyOf(c));
    const decide = host.decideWithToken?.bind(host);
    if (decide === undefined) throw new ProtocolError('not_found', 'This host sends no push.');
    const result = await host.runOnMain(() => decide(token, decision));
    return respond(c, contract.pushDecide, { status: 200, body: result });
  };
}
