import { randomBytes } from 'node:crypto';
import type { MediaRef } from '@webbridge/contract';

interface Grant {
  readonly attachmentId: string;
  readonly expiresAt: number;
}

/**
 * Temporary media ids: each grants reading one attachment's file for `ttlMs`. An id is 128
 * random bits (base64url). While an attachment's id has more than half its life left it is
 * reused, so repeated snapshots do not churn ids; after that a fresh one is issued.
 */
export class MediaRegistry {
  private readonly grants = new Map<string, Grant>();
  private readonly current = new Map<string, string>();
  private revocations = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A currently valid media id for the attachment, issued if needed. */
  refFor(attachmentId: string): MediaRef {
    const time = this.now();
    const existing = this.current.get(attachmentId);
    const grant = existing === undefined ? undefined : this.grants.get(existing);
    if (existing !== undefined && grant && grant.expiresAt - time > this.ttlMs / 2) {
      return { id: existing, expiresAt: grant.expiresAt };
    }
    return this.issue(attachmentId, time);
  }

  /** A brand-new id for the attachment (the `refreshMedia` action). */
  issue(attachmentId: string, time = this.now()): MediaRef {
    this.sweep(time);
    const id = randomBytes(16).toString('base64url');
    const expiresAt = time + this.ttlMs;
    this.grants.set(id, { attachmentId, expiresAt });
    this.current.set(attachmentId, id);
    return { id, expiresAt };
  }

  /** The attachment an id grants, or undefined when unknown or expired (the same answer). */
  resolve(id: string): string | undefined {
    const grant = this.grants.get(id);
    if (!grant) return undefined;
    if (grant.expiresAt <= this.now()) {
      this.grants.delete(id);
      return undefined;
    }
    return grant.attachmentId;
  }

  /**
   * Revokes every id issued so far (the access code was rotated: whoever held the old code
   * may hold its media ids too). They answer 404 from now on; new ids are issued as needed.
   */
  revokeAll(): void {
    this.grants.clear();
    this.current.clear();
    this.revocations++;
  }

  /** How many times every id was revoked: anything that cached ids before is stale. */
  get generation(): number {
    return this.revocations;
  }

  /** How long an id lives, in milliseconds. */
  get lifetimeMs(): number {
    return this.ttlMs;
  }

  /** Number of live grants (for tests and metrics). */
  get size(): number {
    return this.grants.size;
  }

  private sweep(time: number): void {
    // Amortised cleanup: expired grants are dropped while new ones are issued, so the map
    // stays bounded by the number of ids issued within one lifetime.
    if (this.grants.size < 64) return;
    for (const [id, grant] of this.grants) {
      if (grant.expiresAt <= time) {
        this.grants.delete(id);
        if (this.current.get(grant.attachmentId) === id) this.current.delete(grant.attachmentId);
      }
    }
  }
}
