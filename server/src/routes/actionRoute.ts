import { contract, MAX_JSON } from '@webbridge/contract';
import type { Context } from 'hono';
import type { ActionDispatcher } from '../actions/ActionDispatcher';
import type { Outcome } from '../actions/Outcome';
import type { BridgeEnv } from '../env';
import { headerCheck } from '../guards/contractHeaders';
import { headOf, type RequestHead } from '../guards/RequestHead';
import { clientAddress } from '../guards/rawHeaders';
import { throttleKey } from '../guards/throttleKey';
import type { ActionOrigin } from '../HostAdapter';
import { bodyOf, contractBody, type ReadBody } from './contractBody';
import { respond } from './respond';

/**
 * Takes one action request past the front door: its headers, its body, the dispatcher. A
 * malformed request throws its refusal; the action's own outcome (its result, or a refusal such
 * as a 409) is returned as a value (see ActionDispatcher.dispatch).
 */
export type ActionHandler = (head: RequestHead, read: ReadBody, origin?: ActionOrigin) => Promise<Outcome>;

/**
 * POST /api/action after the front door: the contract's headers (415 unless JSON), one action
 * of the contract's union in at most MAX_JSON bytes of JSON, applied (identity check and
 * effect in one executor task) by the dispatcher. Returns the action's outcome; state changes
 * arrive on the event stream. Shared by the Hono route below and the Node listener's action
 * lane (adapters/actionLane.ts), which differ only in how they read the body and answer.
 */
export function actionHandler(dispatcher: ActionDispatcher): ActionHandler {
  const checkHeaders = headerCheck(contract.action);
  const body = contractBody(contract.action.body, { max: MAX_JSON });
  return async (head, read, origin) => {
    checkHeaders(head);
    const action = await body(head, read);
    return dispatcher.dispatch(action, throttleKey(clientAddress(head)), origin);
  };
}

/** POST /api/action as a Hono route (see {@link actionHandler}). */
export function actionRoute(dispatcher: ActionDispatcher) {
  const handle = actionHandler(dispatcher);
  return async (c: Context<BridgeEnv>) => {
    // The paired device that sent it, if any: hosts record it where a person sees who did what.
    const device = c.get('device');
    const outcome = await handle(headOf(c), bodyOf(c), device ? { device } : undefined);
    if (!outcome.ok) throw outcome.error;
    return respond(c, contract.action, { status: 200, body: outcome.value });
  };
}
