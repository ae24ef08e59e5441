import { contract } from '@webbridge/contract';
import type { Context } from 'hono';
import type { HostAdapter } from '../adapter';
import type { BridgeEnv } from '../env';
import type { WireMapper } from '../media/toWire';
import { respond } from './respond';

/** GET and HEAD /api/state: the full current state, with media ids valid now. */
export function stateRoute(host: HostAdapter, wire: WireMapper) {
  return (c: Context<BridgeEnv>) =>
    respond(c, contract.state, { status: 200, body: wire.snapshot(host.readState()) });
}
