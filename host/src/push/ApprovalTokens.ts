import { createHash, randomBytes } from 'node:crypto';

/** Who a token was given to: the device whose push carried it. */
export interface TokenHolder {
  readonly approvalId: string;
  readonly deviceId: string;
  readonly deviceName: string;
}

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Approval-scoped tokens: each push of a waiting approval carries one, which can decide that
 * approval, once, for the device it was pushed to. Spent when used; void for every device once
 * the approval is answered anywhere (or withdrawn). Kept in memory only, by hash: a host
 * restart voids them all (the notification then opens the app instead).
 */
export class ApprovalTokens {
  private readonly byDigest = new Map<string, TokenHolder>();
  private readonly byApproval = new Map<string, Set<string>>();

  /** A fresh token (128 random bits, base64url) for `holder`. */
  issue(holder: TokenHolder): string {
    const token = randomBytes(16).toString('base64url');
    const key = digest(token);
    this.byDigest.set(key, holder);
    let keys = this.byApproval.get(holder.approvalId);
    if (keys === undefined) {
      keys = new Set();
      this.byApproval.set(holder.approvalId, keys);
    }
    keys.add(key);
    return token;
  }

  /**
   * Spends a token: returns its holder and forgets it (single use), or undefined for a token
   * that is unknown, spent or void. Looked up by hash, so the time taken says nothing about how
   * close a guess came.
   */
  redeem(token: string): TokenHolder | undefined {
    const key = digest(token);
    const holder = this.byDigest.get(key);
    if (holder === undefined) return undefined;
    this.byDigest.delete(key);
    this.byApproval.get(holder.approvalId)?.delete(key);
    return holder;
  }

  /** Voids every token of an approval (it was answered or withdrawn). */
  voidApproval(approvalId: string): void {
    for (const key of this.byApproval.get(approvalId) ?? []) this.byDigest.delete(key);
    this.byApproval.delete(approvalId);
  }

  /** Voids every token given to a device (it was forgotten). */
  voidDevice(deviceId: string): void {
    for (const [key, holder] of this.byDigest) {
      if (holder.deviceId !== deviceId) continue;
      this.byDigest.delete(key);
      this.byApproval.get(holder.approvalId)?.delete(key);
    }
  }

  /** How many tokens are live (for tests). */
  get size(): number {
    return this.byDigest.size;
  }
}
