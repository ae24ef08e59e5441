import { hash, timingSafeEqual } from 'node:crypto';
import type { AccessLevel } from '@webbridge/contract';

/**
 * The width, in UTF-8 bytes, of the slot a code is compared in. Every code a person types or the
 * host generates fits (a generated code is 19 characters, a device credential 22); a longer
 * presented code is compared by its digest instead (see {@link Secret}).
 */
const SLOT_BYTES = 64;

/**
 * Codes become UTF-8 bytes with `TextEncoder.encodeInto`, not Node's Buffer: the bridge's core also
 * runs in a page (the mock mode), and `encodeInto` is the cheaper of the two on Node as well
 * (~50 against ~100 ns for a 19-character code, measured alone).
 */
const encoder = new TextEncoder();

/** The length given to a code that does not fit the slot: no presented code's length is negative. */
const DOES_NOT_FIT = -1;

/** SHA-256 of a secret: compared digests have one length, so timing tells nothing of lengths. */
function digest(secret: string): Uint8Array {
  // One-shot hashing: no Hash object per call.
  return hash('sha256', secret, 'buffer');
}

/**
 * One code, kept two ways for a constant-time check: zero-padded to {@link SLOT_BYTES} with its
 * length (a code longer than the slot leaves the slot zero: no presented code that fits can
 * match it), and as its digest, for a presented code too long for the slot.
 */
interface Secret {
  readonly slot: Uint8Array;
  readonly bytes: number;
  readonly digest: Uint8Array;
}

function secretOf(code: string): Secret {
  const slot = new Uint8Array(SLOT_BYTES);
  const { read, written } = encoder.encodeInto(code, slot);
  if (read === code.length) return { slot, bytes: written, digest: digest(code) };
  slot.fill(0);
  return { slot, bytes: DOES_NOT_FIT, digest: digest(code) };
}

/**
 * A view code equal to the access code would be read as the access code: whoever was handed it
 * "to watch" would control the host. Refused wherever the two meet.
 */
function distinct(control: string, view: string | undefined): void {
  if (view !== undefined && view === control) {
    throw new Error('The view code must differ from the access code.');
  }
}

/**
 * The codes a browser may present: the access code (control) and an optional view code
 * (watching only). Both change at run time; each check compares against both in constant time,
 * so timing tells neither which code exists, nor how long it is, nor how close a guess came.
 *
 * A presented code of up to {@link SLOT_BYTES} bytes is written, zero-padded, into one scratch
 * buffer of that width and compared with `timingSafeEqual` against each code's padded slot,
 * and its length against each code's length (the padding alone would let `abc` match `abc\0`).
 * Every such check compares the same number of bytes whatever the codes are, so its time
 * depends only on the presented code's own length, which its sender knows. A longer presented
 * code is hashed and compared by digest, as every code was before: also constant in the codes.
 * The slot was chosen over hashing every request for its cost: ~0.3 µs a check against ~0.9 µs
 * for the SHA-256 (docs/PERFORMANCE.md, "Request rate: profile of the quiet run").
 */
export class AccessCodes {
  private controlSecret: Secret;
  private viewSecret: Secret | undefined;
  /**
   * Where a presented code is padded for the compare: one buffer, reused (the check is
   * synchronous), zeroed past the code each time.
   */
  private readonly scratch = new Uint8Array(SLOT_BYTES);

  constructor(
    private control: string,
    private viewCode: string | undefined = undefined,
  ) {
    distinct(control, viewCode);
    this.controlSecret = secretOf(control);
    this.viewSecret = viewCode === undefined ? undefined : secretOf(viewCode);
  }

  /** The access level `presented` grants, or undefined when it is neither code. */
  levelOf(presented: string): AccessLevel | undefined {
    const view = this.viewSecret;
    const { scratch } = this;
    // Writes what fits; all of it (every UTF-16 unit read) when the code's UTF-8 fits the slot.
    const { read, written } = encoder.encodeInto(presented, scratch);
    let isControl: boolean;
    let isView: boolean;
    if (read === presented.length) {
      scratch.fill(0, written);
      isControl = same(scratch, written, this.controlSecret.slot, this.controlSecret.bytes);
      // Always compared when there is a view code, even after a match, so both take the same time.
      isView = view !== undefined && same(scratch, written, view.slot, view.bytes);
      scratch.fill(0);
    } else {
      scratch.fill(0);
      const candidate = digest(presented);
      isControl = timingSafeEqual(candidate, this.controlSecret.digest);
      isView = view !== undefined && timingSafeEqual(candidate, view.digest);
    }
    if (isControl) return 'control';
    return isView ? 'view' : undefined;
  }

  /** The current access code. */
  get current(): string {
    return this.control;
  }

  /** The current view code, if any. */
  get view(): string | undefined {
    return this.viewCode;
  }

  setControl(code: string): void {
    distinct(code, this.viewCode);
    this.control = code;
    this.controlSecret = secretOf(code);
  }

  setView(code: string | undefined): void {
    distinct(this.control, code);
    this.viewCode = code;
    this.viewSecret = code === undefined ? undefined : secretOf(code);
  }
}

/**
 * Whether two padded slots hold the same code: every byte compared, and the lengths, with no
 * early exit on the bytes (the length test is one integer comparison, whichever way it goes).
 */
function same(slot: Uint8Array, bytes: number, secret: Uint8Array, secretBytes: number): boolean {
  const equal = timingSafeEqual(slot, secret);
  return bytes === secretBytes && equal;
}
