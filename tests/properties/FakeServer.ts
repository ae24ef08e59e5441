import type { MediaRef, Projection, Snapshot, StreamEvent } from '@webbridge/contract';
import {
  createSignatureCache,
  diffProjection,
  encodeDelta,
  isEmptyDelta,
  MediaRegistry,
  WireMapper,
} from '@webbridge/server';

/** Media ids that depend only on the attachment, so wire snapshots can be compared. */
class FakeMedia extends MediaRegistry {
  override refFor(attachmentId: string): MediaRef {
    return { id: `media-${attachmentId}-0123456789abcdef`, expiresAt: 1_000 };
  }
}

/** The server side of the simulation: one signature cache, one mapper, seq = projection version. */
export class FakeServer {
  private readonly signatureOf = createSignatureCache();
  private readonly signatures = new WeakMap<Projection, string>();
  private readonly versions = new WeakMap<Projection, number>();
  private version = 0;
  readonly mapper = new WireMapper(new FakeMedia(60_000, () => 0));

  publish(state: Projection): void {
    if (this.versions.has(state)) return;
    this.versions.set(state, ++this.version);
    this.signatures.set(state, this.signatureOf(state));
  }

  private seq(state: Projection): number {
    return this.versions.get(state)!;
  }

  private signature(state: Projection): string {
    return this.signatures.get(state)!;
  }

  /** What the producer would send to move a subscriber from `sent` to `now`; undefined: nothing. */
  eventFor(sent: Projection | null, now: Projection): StreamEvent | undefined {
    if (sent === now) return undefined;
    if (sent === null || this.signature(sent) !== this.signature(now)) {
      return {
        kind: 'snapshot',
        seq: this.seq(now),
        signature: this.signature(now),
        snapshot: this.mapper.snapshot(now),
      };
    }
    const delta = diffProjection(sent, now);
    if (isEmptyDelta(delta)) return undefined;
    // The server's own encoder: a lone append to the running message becomes a compact append.
    return encodeDelta(delta, now, this.seq(sent), this.seq(now), this.mapper);
  }

  /** The wire snapshot of a projection after a trip through JSON, as a client would receive it. */
  wire(state: Projection): Snapshot {
    return JSON.parse(JSON.stringify(this.mapper.snapshot(state))) as Snapshot;
  }
}
