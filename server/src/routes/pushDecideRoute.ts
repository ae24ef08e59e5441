import { contract, ProtocolError, pushDecisionSchema } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import { headerCheck } from '../guards/contractHeaders';
import { headOf, incomingOf } from '../guards/RequestHead';
import type { HostAdapter } from '../HostAdapter';
import { readIncoming, readJsonBody } from './readJsonBody';
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
  return async (c: Context<BridgeEnv>) => {
    const head = headOf(c);
    checkHeaders(head);
    const incoming = incomingOf(c);
    const read = incoming ? (max: number) => readIncoming(incoming, max) : () => c.req.text();
    const parsed = pushDecisionSchema.safeParse(await readJsonBody(head, MAX_DECISION_BYTES, read));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
      throw new ProtocolError('invalid_request', 'The request does not match the protocol.', { issues });
    }
    const decide = host.decideWithToken?.bind(host);
    if (decide === undefined) throw new ProtocolError('not_found', 'This host sends no push.');
    const { token, decision } = parsed.data;
    const result = await host.runOnMain(() => decide(token, decision));
    return respond(c, contract.pushDecide, { status: 200, body: result });
  };
}
