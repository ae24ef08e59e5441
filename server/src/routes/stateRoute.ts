import { contract, formatStateTag, type Projection, type Snapshot } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import type { EventHub } from '../events/EventHub';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import type { WireMapper } from '../media/WireMapper';
import { respondSerialised } from './respond';

/** The last snapshot served, with its JSON. */
interface Kept {
  readonly state: Projection;
  readonly mediaKey: string;
  readonly body: Snapshot;
  readonly json: string;
}

/**
 * GET and HEAD /api/state: the full current state, with media ids valid now, and as its
 * `ETag` the event id it is at (the hub's latest projection and seq): a client that shows it
 * resumes the event stream from there instead of receiving it again as a snapshot. Between changes
 * every request gets the same bytes: the snapshot and its JSON are kept per projection (the
 * host hands out the same object until something changes) and media key, so the ids in it keep
 * at least a quarter of their life and none is one a rotation revoked.
 */
export function stateRoute(hub: EventHub, wire: WireMapper) {
  let kept: Kept | undefined;
  const checkHeaders = headerCheck(contract.state);
  return (c: Context<BridgeEnv>) => {
    checkHeaders(headOf(c));
    const { seq, state } = hub.latest();
    const mediaKey = wire.mediaKey();
    if (kept?.state !== state || kept.mediaKey !== mediaKey) {
      const body = wire.snapshot(state);
      kept = { state, mediaKey, body, json: JSON.stringify(body) };
    }
    const { body, json } = kept;
    return respondSerialised(c, contract.state, { status: 200, body }, () => json, {
      ETag: formatStateTag(state.instanceId, seq),
    });
  };
}
