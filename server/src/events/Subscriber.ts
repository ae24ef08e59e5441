import {
  type EventFrames,
  type HeartbeatEvent,
  heartbeatFrame,
  type Projection,
  type SnapshotEvent,
  streamEventFrame,
} from '@webbridge/contract';
import type { WireMapper } from '../media/toWire';
import { diffProjection, isEmptyDelta } from './diffProjection';
import { encodeDelta } from './encodeDelta';
import type { StreamSink } from './StreamSink';
import type { ConnectionInfo, Subscription, SubscriptionSource } from './Subscription';

const encoder = new TextEncoder();

/** Options of a {@link Subscriber}. */
export interface SubscriberOptions {
  readonly hub: SubscriptionSource;
  readonly wire: WireMapper;
  readonly sink: StreamSink;
  readonly heartbeatMs: number;
  /** How appends are framed: `named` (`event: state`) unless the client opted in to `compact`. */
  readonly frames: EventFrames;
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
 * One subscriber's producer. It builds a frame only when its transport has taken the previous
 * one (the rendezvous), always against what this subscriber last received: a slow client gets
 * fewer, larger deltas and costs one projection reference, whatever the number of updates.
 * Subscribers at the same place share the built bytes through the hub's frame cache.
 */
export class Subscriber implements Subscription {
  readonly accessCode: string;
  readonly info: ConnectionInfo;
  private sent: { seq: number; state: Projection } | undefined;
  private sentSignature = '';
  /** The seq the client is at; may lag `sent.seq` when changes were invisible to it. */
  private clientSeq = 0;
  private blocked = false;
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly options: SubscriberOptions) {
    this.accessCode = options.accessCode;
    this.info = options.info;
    const { hub, sink, resumeFrom } = options;
    const resumed = resumeFrom === undefined ? undefined : hub.at(resumeFrom);
    if (resumeFrom !== undefined && resumed) {
      this.sent = { seq: resumeFrom, state: resumed };
      this.sentSignature = hub.frames.signatureOf(resumed);
      this.clientSeq = resumeFrom;
    }
    // Heartbeats measure the idleness of this stream: every frame re-arms the timer.
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
    sink.onDrain(() => {
      this.blocked = false;
      this.flush();
    });
    sink.onClose(() => this.close());
  }

  /**
   * Sends the first frame: a snapshot, or, to a resuming client, a heartbeat and then what it
   * missed. Either names the heartbeat interval, so the client can time its dead-connection
   * check from the first event, whatever the interval and even when nothing changed.
   */
  start(): void {
    if (this.sent) {
      this.beat();
      this.flush();
    } else {
      this.sendSnapshot();
    }
  }

  /** The hub's projection changed. */
  onChange(): void {
    if (!this.blocked && !this.closed) this.flush();
  }

  /** Ends the stream; the client reconnects and starts over. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.options.hub.remove(this);
    this.options.sink.end();
  }

  private sendSnapshot(): void {
    const { hub } = this.options;
    const latest = hub.latest();
    const signature = hub.frames.signatureOf(latest.state);
    this.emit(this.snapshotFrame(latest.seq, latest.state, signature));
    this.advance(latest, signature);
  }

  /** Builds and sends what the client lacks, if anything, unless the transport is full. */
  private flush(): void {
    const { hub, wire } = this.options;
    const from = this.sent;
    if (this.closed || this.blocked || !from) return;
    const next = hub.latest();
    if (next.seq === from.seq) return;
    const signature = hub.frames.signatureOf(next.state);
    if (signature !== this.sentSignature) {
      this.emit(this.snapshotFrame(next.seq, next.state, signature));
      this.advance(next, signature);
      return;
    }
    const base = this.clientSeq;
    const { frames } = this.options;
    const frame = hub.frames.frame(`d${base}:${from.seq}:${next.seq}:${wire.mediaEpoch()}:${frames}`, () => {
      const delta = diffProjection(from.state, next.state);
      if (isEmptyDelta(delta)) return null;
      return encoder.encode(streamEventFrame(encodeDelta(delta, next.state, base, next.seq, wire), frames));
    });
    if (frame === null) {
      // Nothing this client can see changed: remember the newer projection, keep its seq.
      this.sent = next;
      return;
    }
    this.emit(frame);
    this.advance(next, signature);
  }

  private snapshotFrame(seq: number, state: Projection, signature: string): Uint8Array {
    const { hub, wire, heartbeatMs } = this.options;
    return hub.frames.frame(`s${seq}:${wire.mediaEpoch()}:${heartbeatMs}`, () => {
      const snapshot = wire.snapshot(state);
      const event: SnapshotEvent = { kind: 'snapshot', seq, signature, heartbeatMs, snapshot };
      return encoder.encode(streamEventFrame(event, 'named'));
    })!;
  }

  private advance(to: { seq: number; state: Projection }, signature: string): void {
    this.sent = to;
    this.sentSignature = signature;
    this.clientSeq = to.seq;
  }

  private emit(frame: Uint8Array): void {
    if (this.closed) return;
    this.heartbeat.refresh();
    if (!this.options.sink.write(frame)) this.blocked = true;
  }

  private beat(): void {
    // A client that is not reading needs no heartbeat: its socket is full already.
    if (this.closed || this.blocked) return;
    const heartbeat: HeartbeatEvent = { t: Date.now(), heartbeatMs: this.options.heartbeatMs };
    this.emit(encoder.encode(heartbeatFrame(heartbeat)));
  }
}
