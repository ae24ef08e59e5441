import { actionSchema, contract, MAX_JSON } from '@webbridge/contract';
import type { Context } from 'hono';
import type { ActionDispatcher } from '../actions/ActionDispatcher';
import type { BridgeEnv } from '../env';
import { BridgeError } from '../errors/BridgeError';
import { headerCheck } from '../guards/contractHeaders';
import { clientAddress, throttleKey } from '../guards/rawHeaders';
import { readJsonBody } from './readJsonBody';
import { respond } from './respond';

/**
 * POST /api/action: one action of the contract's union, at most MAX_JSON bytes of JSON,
 * applied (identity check and effect in one executor task) by the dispatcher. The answer is
 * the action's result; state changes arrive on the event stream.
 */
export function actionRoute(dispatcher: ActionDispatcher) {
  const checkHeaders = headerCheck(contract.action);
  return async (c: Context<BridgeEnv>) => {
    checkHeaders(c);
    const parsed = actionSchema.safeParse(await readJsonBody(c, MAX_JSON));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
      throw new BridgeError('invalid_request', 'The request does not match the protocol.', { issues });
    }
    const result = await dispatcher.dispatch(parsed.data, throttleKey(clientAddress(c)));
    return respond(c, contract.action, { status: 200, body: result });
  };
}
