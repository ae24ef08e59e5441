import type { MediaRef, Projection, Snapshot, StreamEvent } from '@webbridge/contract';
import {
  createSignatureCache,
  deltaEventOf,
  MediaRegistry,
  nextSend,
  type SentState,
  snapshotEventOf,
  WireMapper,
} from '@webbridge/server';

/** Media ids that depend only on the attachment, so wire snapshots can be compared. */
class FakeMedia extends MediaRegistry {
  override refFor(attachmentId: string): MediaRef {
    return { id: `media-${attachmentId}-0123456789abcdef`, expiresAt: 1_000 };
  }
}

/**
 * The hub's part of the simulation: a seq for every published projection, their signatures
 * and a wire mapper. What a subscriber is sent is decided by the server's own `nextSend` and
 * built by its `deltaEventOf` / `snapshotEventOf`, as `Subscriber` does (minus the frame cache).
 */
export class SimulatedHub {
  private readonly computeSignature = createSignatureCache();
  private readonly signatures = new WeakMap<Projection, string>();
  private readonly versions = new WeakMap<Projection, number>();
  private version = 0;
  readonly mapper = new WireMapper(new FakeMedia(60_000, () => 0));

  publish(state: Projection): void {
    if (this.versions.has(state)) return;
    this.versions.set(state, ++this.version);
    this.signatures.set(state, this.computeSignature(state));
  }

  /** What the server sends a subscriber at `sent` when `now` is the latest projection. */
  send(
    sent: SentState | undefined,
    now: Projection,
  ): { event: StreamEvent | undefined; sent: SentState | undefined } {
    const step = nextSend(sent, { seq: this.versions.get(now)!, state: now }, (s) => this.signatures.get(s)!);
    switch (step.kind) {
      case 'none':
        return { event: undefined, sent };
      case 'snapshot':
        return { event: snapshotEventOf(step.then, this.mapper), sent: step.then };
      case 'delta': {
        const event = deltaEventOf(step, this.mapper);
        return event === undefined ? { event, sent: step.unseen } : { event, sent: step.then };
      }
      default: {
        const unknown: never = step;
        throw new Error(`unknown step ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** The wire snapshot of a projection after a trip through JSON, as a client would receive it. */
  wire(state: Projection): Snapshot {
    return JSON.parse(JSON.stringify(this.mapper.snapshot(state))) as Snapshot;
  }
}
