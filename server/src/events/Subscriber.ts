import { type EventFrames, type HeartbeatEvent, heartbeatFrame, streamEventFrame } from '@webbridge/contract';
import type { MediaHolder } from '../media/MediaRegistry';
import type { WireMapper } from '../media/WireMapper';
import { type IdleTimer, idleTimer } from './idleTimer';
import { deltaEventOf, nextSend, type SentState, snapshotEventOf } from './nextSend';
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
  /** Whose media ids the stream carries: the device that opened it, or the codes' holder. */
  readonly holder: MediaHolder;
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
  /** What the client has been sent (see nextSend.ts); undefined until the first snapshot. */
  private sent: SentState | undefined;
  private started = false;
  private blocked = false;
  private closed = false;
  private readonly heartbeat: IdleTimer;

  constructor(private readonly options: SubscriberOptions) {
    this.accessCode = options.accessCode;
    this.info = options.info;
    const { hub, sink, resumeFrom } = options;
    const resumed = resumeFrom === undefined ? undefined : hub.at(resumeFrom);
    if (resumeFrom !== undefined && resumed) {
      const signature = hub.frames.signatureOf(resumed);
      this.sent = { seq: resumeFrom, state: resumed, signature, clientSeq: resumeFrom };
    }
    // Heartbeats measure the idleness of this stream: every frame re-arms the timer.
    this.heartbeat = idleTimer(() => this.beat(), options.heartbeatMs);
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
    this.started = true;
    if (this.sent) this.beat();
    this.flush();
  }

  /** The hub's projection changed. */
  onChange(): void {
    if (!this.blocked && !this.closed) this.flush();
  }

  /** Ends the stream; the client reconnects and starts over. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.heartbeat.stop();
    this.options.hub.remove(this);
    this.options.sink.end();
  }

  /** Builds and sends what the client lacks, if anything, unless the transport is full. */
  private flush(): void {
    if (this.closed || this.blocked || !this.started) return;
    const { hub, wire, frames, heartbeatMs } = this.options;
    const step = nextSend(this.sent, hub.latest(), (state) => hub.frames.signatureOf(state));
    switch (step.kind) {
      case 'none':
        return;
      case 'snapshot': {
        const { then } = step;
        const key = `s${then.seq}:${wire.mediaEpoch()}:${heartbeatMs}`;
        const frame = hub.frames.frameFor(key, this.options.holder, wire, (mapper) =>
          encoder.encode(streamEventFrame(snapshotEventOf(then, mapper, heartbeatMs), frames)),
        );
        this.emit(frame!);
        this.sent = then;
        return;
      }
      case 'delta': {
        const key = `d${step.from.clientSeq}:${step.from.seq}:${step.then.seq}:${wire.mediaEpoch()}:${frames}`;
        const frame = hub.frames.frameFor(key, this.options.holder, wire, (mapper) => {
          const event = deltaEventOf(step, mapper);
          return event === undefined ? null : encoder.encode(streamEventFrame(event, frames));
        });
        // Nothing this client can see changed: remember the newer projection, keep its seq.
        if (frame === null) {
          this.sent = step.unseen;
          return;
        }
        this.emit(frame);
        this.sent = step.then;
        return;
      }
      default: {
        const unknown: never = step;
        throw new Error(`unknown step ${JSON.stringify(unknown)}`);
      }
    }
  }

  private emit(frame: Uint8Array): void {
    if (this.closed) return;
    this.heartbeat.rearm();
    if (!this.options.sink.write(frame)) this.blocked = true;
  }

  private beat(): void {
    // A client that is not reading needs no heartbeat: its socket is full already.
    if (this.closed || this.blocked) return;
    const heartbeat: HeartbeatEvent = { t: Date.now(), heartbeatMs: this.options.heartbeatMs };
    this.emit(encoder.encode(heartbeatFrame(heartbeat)));
  }
}
