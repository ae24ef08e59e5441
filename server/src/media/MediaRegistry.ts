import { randomBytes } from 'node:crypto';
import type { MediaRef } from '@webbridge/contract';

/**
 * Who media ids are issued to: a paired device by its id, or {@link CODE_HOLDER} for whoever
 * presented the access or view code itself (a rotation revokes those with everything else).
 */
export type MediaHolder = string;

/** The holder of ids handed out under the codes themselves (no device): never a device id. */
export const CODE_HOLDER: MediaHolder = '';

/** The holder of an id handed to `device` (or to a code, without one). */
export function holderOf(device: { readonly id: string } | undefined): MediaHolder {
  return device?.id ?? CODE_HOLDER;
}

interface Grant {
  readonly attachmentId: string;
  readonly holder: MediaHolder;
  readonly expiresAt: number;
}

/**
 * Temporary media ids: each grants reading one attachment's file for `ttlMs`, and belongs to
 * the holder it was issued to, so forgetting one device revokes its ids and no one else's. An
 * id is 128 random bits (base64url). While a holder's id for an attachment has more than half
 * its life left it is reused, so repeated snapshots do not churn ids; after that a fresh one is
 * issued.
 */
export class MediaRegistry {
  private readonly grants = new Map<string, Grant>();
  /** The current id of each (holder, attachment), keyed `holder \0 attachmentId`. */
  private readonly current = new Map<string, string>();
  private revocations = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A currently valid media id of `holder` for the attachment, issued if needed. */
  refFor(attachmentId: string, holder: MediaHolder = CODE_HOLDER): MediaRef {
    const time = this.now();
    const existing = this.current.get(currentKey(holder, attachmentId));
    const grant = existing === undefined ? undefined : this.grants.get(existing);
    if (existing !== undefined && grant && grant.expiresAt - time > this.ttlMs / 2) {
      return { id: existing, expiresAt: grant.expiresAt };
    }
    return this.issue(attachmentId, holder, time);
  }

  /** A brand-new id of `holder` for the attachment (the `refreshMedia` action). */
  issue(attachmentId: string, holder: MediaHolder = CODE_HOLDER, time = this.now()): MediaRef {
    this.sweep(time);
    const id = randomBytes(16).toString('base64url');
    const expiresAt = time + this.ttlMs;
    this.grants.set(id, { attachmentId, holder, expiresAt });
    this.current.set(currentKey(holder, attachmentId), id);
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

  /**
   * Revokes the ids issued to one holder (a forgotten device); everyone else's stay good, so
   * their streams go on.
   */
  revokeHolder(holder: MediaHolder): void {
    for (const [id, grant] of this.grants) {
      if (grant.holder !== holder) continue;
      this.grants.delete(id);
      this.current.delete(currentKey(holder, grant.attachmentId));
    }
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
        const key = currentKey(grant.holder, grant.attachmentId);
        if (this.current.get(key) === id) this.current.delete(key);
      }
    }
  }
}

function currentKey(holder: MediaHolder, attachmentId: string): string {
  return `${holder}\0${attachmentId}`;
}
