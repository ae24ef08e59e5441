import { HEARTBEAT_EVENT, type Projection, type SnapshotEvent, STATE_EVENT } from '@webbridge/contract';
import type { WireMapper } from '../media/toWire';
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
  const { frames } = hub;
  const stop = new AbortController();
  let sent: ReturnType<EventHub['latest']> | undefined;
  let sentSignature = '';
  /** The seq the client is at; may lag `sent.seq` when changes were invisible to it. */
  let clientSeq = 0;
  const resumed = options.resumeFrom === undefined ? undefined : hub.at(options.resumeFrom);
  if (options.resumeFrom !== undefined && resumed) {
    sent = { seq: options.resumeFrom, state: resumed };
    sentSignature = frames.signatureOf(resumed);
    clientSeq = options.resumeFrom;
  }
  let subscription: Subscription | undefined;
  /** When the last frame went out: heartbeats measure idleness of the stream, not of the host. */
  let lastFrameAt = Date.now();

  const finish = () => {
    stop.abort();
    if (subscription) hub.remove(subscription);
  };
  const snapshotFrame = (seq: number, state: Projection, signature: string) =>
    frames.frame(`s${seq}`, () => {
      const event: SnapshotEvent = { kind: 'snapshot', seq, signature, snapshot: wire.snapshot(state) };
      return sseFrame(STATE_EVENT, JSON.stringify(event), seq);
    });

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
          sentSignature = frames.signatureOf(sent.state);
          clientSeq = sent.seq;
          controller.enqueue(snapshotFrame(sent.seq, sent.state, sentSignature)!);
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
          const nextSignature = frames.signatureOf(next.state);
          const from = sent;
          const frame =
            nextSignature !== sentSignature
              ? snapshotFrame(next.seq, next.state, nextSignature)
              : frames.frame(`d${clientSeq}:${from.seq}:${next.seq}`, () => {
                  const delta = diffProjection(from.state, next.state);
                  // Nothing this client can see changed.
                  if (isEmptyDelta(delta)) return null;
                  const event = encodeDelta(delta, next.state, clientSeq, next.seq, wire);
                  return event.kind === 'append'
                    ? sseFrame(undefined, JSON.stringify([event.base, event.text]), event.seq)
                    : sseFrame(STATE_EVENT, JSON.stringify(event), event.seq);
                });
          if (frame === null) {
            // Remember the newer projection but keep the client's seq as the next base.
            sent = next;
            continue;
          }
          controller.enqueue(frame);
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
