import { contract, formatStateTag, type Projection, type Snapshot } from '@webbridge/contract';
import type { Context } from 'hono';
import type { BridgeEnv } from '../env';
import type { EventHub } from '../events/EventHub';
import { headerCheck } from '../guards/contractHeaders';
import { headOf } from '../guards/RequestHead';
import { holderOf } from '../media/MediaRegistry';
import type { WireMapper } from '../media/WireMapper';
import { respondSerialised } from './respond';

/** The last snapshot served, with its JSON. */
interface Kept {
  readonly state: Projection;
  readonly mediaKey: string;
  readonly body: Snapshot;
  readonly json: string;
}

/** Holders whose last snapshot is kept; past it they are all dropped (devices are ≤ 50). */
const MAX_KEPT = 64;

/**
 * GET and HEAD /api/state: the full current state, with media ids valid now (the asking
 * device's own, or the codes'), and as its `ETag` the event id it is at (the hub's latest
 * projection and seq): a client that shows it resumes the event stream from there instead of
 * receiving it again as a snapshot. Between changes every request gets the same bytes: the
 * snapshot and its JSON are kept per projection, media key and holder (one copy for all when it
 * carries no media id), so the ids in it keep at least a quarter of their life and none is one a
 * rotation or a forgotten device revoked.
 */
export function stateRoute(hub: EventHub, wire: WireMapper) {
  /** The last snapshot of each holder; under the shared key when it carries no media id. */
  const kept = new Map<string, Kept>();
  const checkHeaders = headerCheck(contract.state);
  const current = (key: string, state: Projection, mediaKey: string) => {
    const found = kept.get(key);
    return found?.state === state && found.mediaKey === mediaKey ? found : undefined;
  };
  return async (c: Context<BridgeEnv>) => {
    checkHeaders(headOf(c));
    const { seq, state } = hub.latest();
    // Answered once stored: a reply's words appended in this turn are committed at its end,
    // and a host killed right after the answer must still have every word the client saw.
    await hub.settled();
    const mediaKey = wire.mediaKey();
    const holder = holderOf(c.get('device'));
    let snapshot = current(SHARED, state, mediaKey) ?? current(holder, state, mediaKey);
    if (snapshot === undefined) {
      const mapper = wire.forHolder(holder);
      const body = mapper.snapshot(state);
      snapshot = { state, mediaKey, body, json: JSON.stringify(body) };
      if (kept.size >= MAX_KEPT) kept.clear();
      kept.set(mapper.carriedMedia ? holder : SHARED, snapshot);
    }
    const { body, json } = snapshot;
    return respondSerialised(c, contract.state, { status: 200, body }, () => json, {
      ETag: formatStateTag(state.instanceId, seq),
    });
  };
}

/** The key of a snapshot that carries no media id: never a holder (a device id has no space). */
const SHARED = 'shared snapshot';
