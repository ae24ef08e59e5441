import { contract, MAX_JSON, ProtocolError, parseAction } from '@webbridge/contract';
import type { Context } from 'hono';
import type { ActionDispatcher } from '../actions/ActionDispatcher';
import type { Outcome } from '../actions/Outcome';
import type { BridgeEnv } from '../env';
import { headerCheck } from '../guards/contractHeaders';
import { headOf, incomingOf, type RequestHead } from '../guards/RequestHead';
import { clientAddress } from '../guards/rawHeaders';
import { throttleKey } from '../guards/throttleKey';
import type { ActionOrigin } from '../HostAdapter';
import { readIncoming, readJsonBody } from './readJsonBody';
import { respond } from './respond';

/**
 * Takes one action request past the front door: its headers, its body, the dispatcher. A
 * malformed request throws its refusal; the action's own outcome (its result, or a refusal such
 * as a 409) is returned as a value (see ActionDispatcher.dispatch).
 */
export type ActionHandler = (
  head: RequestHead,
  read: (max: number) => Promise<string>,
  origin?: ActionOrigin,
) => Promise<Outcome>;

/**
 * POST /api/action after the front door: the contract's headers (415 unless JSON), one action
 * of the contract's union in at most MAX_JSON bytes of JSON, applied (identity check and
 * effect in one executor task) by the dispatcher. Returns the action's outcome; state changes
 * arrive on the event stream. Shared by the Hono route below and the Node listener's action
 * lane (adapters/actionLane.ts), which differ only in how they read the body and answer.
 */
export function actionHandler(dispatcher: ActionDispatcher): ActionHandler {
  const checkHeaders = headerCheck(contract.action);
  return async (head, read, origin) => {
    checkHeaders(head);
    const parsed = parseAction(await readJsonBody(head, MAX_JSON, read));
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
      throw new ProtocolError('invalid_request', 'The request does not match the protocol.', { issues });
    }
    return dispatcher.dispatch(parsed.data, throttleKey(clientAddress(head)), origin);
  };
}

/** POST /api/action as a Hono route (see {@link actionHandler}). */
export function actionRoute(dispatcher: ActionDispatcher) {
  const handle = actionHandler(dispatcher);
  return async (c: Context<BridgeEnv>) => {
    const incoming = incomingOf(c);
    const read = incoming ? (max: number) => readIncoming(incoming, max) : () => c.req.text();
    // The paired device that sent it, if any: hosts record it where a person sees who did what.
    const device = c.get('device');
    const outcome = await handle(headOf(c), read, device ? { device } : undefined);
    if (!outcome.ok) throw outcome.error;
    return respond(c, contract.action, { status: 200, body: outcome.value });
  };
}
