import { HEARTBEAT_EVENT, type SnapshotEvent, STATE_EVENT } from '@webbridge/contract';
import type { WireMapper } from '../media/toWire';
import { createSignatureCache } from './configSignature';
import { diffProjection, isEmptyDelta } from './diffProjection';
import type { ConnectionInfo, EventHub, Subscription } from './EventHub';
import { encodeDelta } from './encodeDelta';
import { sseFrame } from './sseFrame';

/** Options of {@link createEventStream}. */
export interface EventStreamOptions {
  readonly hub: EventHub;
  readonly wire: WireMapper;
  readonly heartbeatMs: number;
  /** The access code the stream was opened with, so rotation can close it. */
  readonly accessCode: string;
  /** Who opened the stream. */
  readonly info: ConnectionInfo;
  /**
   * The seq the client already holds (from `Last-Event-ID`). When the hub still remembers that
   * projection, the stream starts with what the client missed instead of a snapshot.
   */
  readonly resumeFrom?: number | undefined;
}

/**
 * One subscriber's event stream. The producer is the stream's `pull`: with a high-water mark
 * of zero it runs only when the socket has taken the previous frame, and it builds the next
 * frame against what this subscriber last received. A slow client therefore gets fewer,
 * larger deltas and holds one projection reference, whatever the number of updates.
 */
export function createEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { hub, wire, heartbeatMs } = options;
  const signature = createSignatureCache();
  const stop = new AbortController();
  let sent: ReturnType<EventHub['latest']> | undefined;
  let sentSignature = '';
  /** The seq the client is at; may lag `sent.seq` when changes were invisible to it. */
  let clientSeq = 0;
  const resumed = options.resumeFrom === undefined ? undefined : hub.at(options.resumeFrom);
  if (options.resumeFrom !== undefined && resumed) {
    sent = { seq: options.resumeFrom, state: resumed };
    sentSignature = signature(resumed);
    clientSeq = options.resumeFrom;
  }
  let subscription: Subscription | undefined;
  /** When the last frame went out: heartbeats measure idleness of the stream, not of the host. */
  let lastFrameAt = Date.now();

  const finish = () => {
    stop.abort();
    if (subscription) hub.remove(subscription);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        subscription = {
          accessCode: options.accessCode,
          info: options.info,
          close: () => {
            finish();
            try {
              controller.close();
            } catch {
              // Already closed or errored by the consumer: nothing left to release.
            }
          },
        };
        hub.add(subscription);
      },
      async pull(controller) {
        if (!sent) {
          sent = hub.latest();
          sentSignature = signature(sent.state);
          clientSeq = sent.seq;
          const snapshot: SnapshotEvent = {
            kind: 'snapshot',
            seq: sent.seq,
            signature: sentSignature,
            snapshot: wire.snapshot(sent.state),
          };
          controller.enqueue(sseFrame(STATE_EVENT, JSON.stringify(snapshot), sent.seq));
          return;
        }
        for (;;) {
          const idleFor = Date.now() - lastFrameAt;
          const changed = await hub.waitForChange(sent.seq, Math.max(0, heartbeatMs - idleFor), stop.signal);
          if (stop.signal.aborted) return;
          if (!changed) {
            controller.enqueue(sseFrame(HEARTBEAT_EVENT, JSON.stringify({ t: Date.now() })));
            lastFrameAt = Date.now();
            return;
          }
          const next = hub.latest();
          const nextSignature = signature(next.state);
          if (nextSignature !== sentSignature) {
            const snapshot: SnapshotEvent = {
              kind: 'snapshot',
              seq: next.seq,
              signature: nextSignature,
              snapshot: wire.snapshot(next.state),
            };
            controller.enqueue(sseFrame(STATE_EVENT, JSON.stringify(snapshot), next.seq));
          } else {
            const delta = diffProjection(sent.state, next.state);
            if (isEmptyDelta(delta)) {
              // Nothing this client can see changed: remember the newer projection but keep
              // the client's seq as the base of the next delta.
              sent = next;
              continue;
            }
            const event = encodeDelta(delta, next.state, clientSeq, next.seq, wire);
            controller.enqueue(
              event.kind === 'append'
                ? sseFrame(undefined, JSON.stringify([event.base, event.text]), event.seq)
                : sseFrame(STATE_EVENT, JSON.stringify(event), event.seq),
            );
          }
          sent = next;
          sentSignature = nextSignature;
          clientSeq = next.seq;
          lastFrameAt = Date.now();
          return;
        }
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 0 },
  );
}
