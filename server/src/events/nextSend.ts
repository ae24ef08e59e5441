import type { AppendEvent, DeltaEvent, Projection, SnapshotEvent } from '@webbridge/contract';
import type { WireMapper } from '../media/WireMapper';
import { diffProjection, isEmptyDelta } from './diffProjection';
import { encodeDelta } from './encodeDelta';

/** What one subscriber has been sent: where its next delta starts. */
export interface SentState {
  /**
   * The projection the next delta is computed from: the last one sent, or a newer one whose
   * changes its client could not see (an empty diff), so the next diff is no larger than needed.
   */
  readonly seq: number;
  readonly state: Projection;
  /** The configuration signature of `state`; a new one means a snapshot. */
  readonly signature: string;
  /** The seq the client is at, the `base` of the next delta; lags `seq` after empty diffs. */
  readonly clientSeq: number;
}

/** The latest projection and its seq, as the hub holds it. */
export interface Latest {
  readonly seq: number;
  readonly state: Projection;
}

/** What a subscriber sends next, and what it has been sent afterwards. */
export type NextSend =
  /** The client is up to date: nothing to send. */
  | { readonly kind: 'none' }
  /** A full snapshot of `then.state` at `then.seq` (a new stream, or a new configuration). */
  | { readonly kind: 'snapshot'; readonly then: SentState }
  /**
   * A delta from `from` to `then`, based on the client's seq; when the diff is empty nothing
   * is sent and the subscriber is at `unseen` (the newer projection, the same client seq).
   */
  | {
      readonly kind: 'delta';
      readonly from: SentState;
      readonly then: SentState;
      readonly unseen: SentState;
    };

/**
 * The subscriber's decision of what to send next, pure: nothing when the client holds the
 * latest seq, a snapshot when it holds nothing or the configuration signature changed, else a
 * delta against what it was last sent. The server's `Subscriber` and the reducer's property
 * test both call it, so the test drives the production decision.
 */
export function nextSend(
  sent: SentState | undefined,
  latest: Latest,
  signatureOf: (state: Projection) => string,
): NextSend {
  if (sent !== undefined && latest.seq === sent.seq) return { kind: 'none' };
  const signature = signatureOf(latest.state);
  const then: SentState = { seq: latest.seq, state: latest.state, signature, clientSeq: latest.seq };
  if (sent === undefined || signature !== sent.signature) return { kind: 'snapshot', then };
  return { kind: 'delta', from: sent, then, unseen: { ...then, clientSeq: sent.clientSeq } };
}

/**
 * The event of a `delta` decision: the diff of the two projections in its wire form (a lone
 * append to the running message as an append), or undefined when the client would see no change.
 */
export function deltaEventOf(
  step: Extract<NextSend, { kind: 'delta' }>,
  wire: WireMapper,
): DeltaEvent | AppendEvent | undefined {
  const delta = diffProjection(step.from.state, step.then.state);
  if (isEmptyDelta(delta)) return undefined;
  return encodeDelta(delta, step.then.state, step.from.clientSeq, step.then.seq, wire);
}

/** The event of a `snapshot` decision, with media ids valid now. */
export function snapshotEventOf(then: SentState, wire: WireMapper, heartbeatMs?: number): SnapshotEvent {
  return {
    kind: 'snapshot',
    seq: then.seq,
    signature: then.signature,
    ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
    snapshot: wire.snapshot(then.state),
  };
}
