import type { Projection } from '@webbridge/contract';
import type { MediaHolder } from '../media/MediaRegistry';
import type { WireMapper } from '../media/WireMapper';
import { createSignatureCache } from './configSignature';

/** How many built frames are kept; subscribers at the same place share the newest ones. */
const MAX_FRAMES = 256;
/** How many bytes of frames are kept: snapshots of long conversations are large. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Frames and signatures shared by all subscribers. Subscribers that are at the same place
 * (the usual case: every client keeps up with a streaming reply) need the same bytes, so a
 * frame is built once per (what the client holds → what it gets) and reused; with 2,000
 * streams a streamed word is diffed and serialised once, not 2,000 times.
 */
export class FrameCache {
  private readonly frames = new Map<string, Uint8Array | null>();
  private bytes = 0;
  private readonly signatures = new WeakMap<Projection, string>();
  private readonly computeSignature = createSignatureCache();

  /** The configuration signature of a projection, computed once per projection. */
  signatureOf(state: Projection): string {
    let signature = this.signatures.get(state);
    if (signature === undefined) {
      signature = this.computeSignature(state);
      this.signatures.set(state, signature);
    }
    return signature;
  }

  /** Bytes of the frames kept (for tests and metrics). */
  get size(): { frames: number; bytes: number } {
    return { frames: this.frames.size, bytes: this.bytes };
  }

  /** Forgets every built frame. */
  clear(): void {
    this.frames.clear();
    this.bytes = 0;
  }

  /** The frame for `key`, built by `build` the first time; `null` means "nothing to send". */
  frame(key: string, build: () => Uint8Array | null): Uint8Array | null {
    const cached = this.frames.get(key);
    if (cached !== undefined) return cached;
    const built = build();
    this.put(key, built);
    return built;
  }

  /**
   * The frame for `key` that fits every holder of media ids, else the one built for `holder`,
   * else `build`'s (given a mapper of `holder`'s ids): kept under `key` when it carries no
   * media id (a streamed word is built once for every device), under `key` and `holder` when
   * it does (each device gets its own ids, so forgetting one revokes only its ids).
   */
  frameFor(
    key: string,
    holder: MediaHolder,
    wire: WireMapper,
    build: (wire: WireMapper) => Uint8Array | null,
  ): Uint8Array | null {
    const shared = this.frames.get(key);
    if (shared !== undefined) return shared;
    const own = `${key}@${holder}`;
    const kept = this.frames.get(own);
    if (kept !== undefined) return kept;
    const mapper = wire.forHolder(holder);
    const built = build(mapper);
    this.put(mapper.carriedMedia ? own : key, built);
    return built;
  }

  private put(key: string, built: Uint8Array | null): void {
    const size = built?.byteLength ?? 0;
    // A frame larger than the whole budget is used once and not kept.
    if (size > MAX_BYTES) return;
    this.frames.set(key, built);
    this.bytes += size;
    while (this.frames.size > MAX_FRAMES || this.bytes > MAX_BYTES) {
      const [oldest, frame] = this.frames.entries().next().value ?? [];
      if (oldest === undefined) break;
      this.frames.delete(oldest);
      this.bytes -= frame?.byteLength ?? 0;
    }
  }
}
