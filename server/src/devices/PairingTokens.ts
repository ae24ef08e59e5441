import { hash, randomBytes } from 'node:crypto';
import { type AccessLevel, PAIRING_TOKEN_TTL_MS, ProtocolError } from '@webbridge/contract';

/** Tokens remembered at most (outstanding, spent or expired); the oldest is forgotten first. */
const MAX_TOKENS = 1_000;
/** How long a spent or expired token is still recognised as such, after it expired. */
const REMEMBERED_MS = 60 * 60 * 1000;

interface Token {
  readonly role: AccessLevel;
  readonly expiresAt: number;
  spent: boolean;
}

/**
 * One-time pairing tokens, the secret a QR code and printed link carry instead of the access
 * code: 144 random bits, redeemable once within {@link PAIRING_TOKEN_TTL_MS}, with the role of
 * whoever minted it. Only their SHA-256 is kept. A spent or expired token is refused with a
 * problem that says so (for an hour after expiry; later, and for anything unknown, it is a
 * plain 401), so the page can offer to type the code instead. The caller throttles attempts
 * with the access code's throttle.
 */
export class PairingTokens {
  private readonly tokens = new Map<string, Token>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = PAIRING_TOKEN_TTL_MS,
  ) {}

  /** A fresh token that pairs a device with `role`. */
  mint(role: AccessLevel): string {
    this.sweep();
    const token = randomBytes(18).toString('base64url');
    this.tokens.set(hash('sha256', token, 'hex'), { role, expiresAt: this.now() + this.ttlMs, spent: false });
    return token;
  }

  /**
   * The role a token would pair with, or throws the 401 that says why not; spends nothing, so
   * a pairing refused for another reason (a name taken, too many devices) keeps its link good.
   */
  check(token: string): AccessLevel {
    return this.entryOf(token).role;
  }

  /** Spends a token: the role it pairs with, or throws the 401 that says why not. */
  redeem(token: string): AccessLevel {
    const entry = this.entryOf(token);
    entry.spent = true;
    return entry.role;
  }

  private entryOf(token: string): Token {
    const entry = this.tokens.get(hash('sha256', token, 'hex'));
    if (entry === undefined) {
      throw new ProtocolError(
        'unauthorized',
        'This pairing link is not valid. Type the access code instead.',
      );
    }
    if (entry.spent) {
      throw new ProtocolError(
        'pairing_token_spent',
        'This pairing link was already used. Type the access code, or show a new link on the host.',
      );
    }
    if (entry.expiresAt <= this.now()) {
      throw new ProtocolError(
        'pairing_token_expired',
        'This pairing link has expired. Type the access code, or show a new link on the host.',
      );
    }
    return entry;
  }

  /**
   * Voids every token of these roles (the code they stood for was rotated): they answer as
   * unknown from now on.
   */
  voidRoles(roles: readonly AccessLevel[]): void {
    for (const [key, entry] of this.tokens) if (roles.includes(entry.role)) this.tokens.delete(key);
  }

  private sweep(): void {
    const time = this.now();
    for (const [key, entry] of this.tokens) {
      if (entry.expiresAt + REMEMBERED_MS <= time) this.tokens.delete(key);
    }
    // Insertion order is minting order: past the bound, the oldest go first.
    for (const key of this.tokens.keys()) {
      if (this.tokens.size < MAX_TOKENS) break;
      this.tokens.delete(key);
    }
  }
}
