import { hash, timingSafeEqual } from 'node:crypto';
import type { AccessLevel } from '@webbridge/contract';

/** SHA-256 of a secret: compared digests have one length, so timing tells nothing of lengths. */
function digest(secret: string): Buffer {
  // One-shot hashing: no Hash object per request (this runs on every protected request).
  return hash('sha256', secret, 'buffer');
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
 * so timing tells neither which code exists nor how close a guess came. The codes' digests are
 * kept, so a request hashes only what it presents.
 */
export class AccessCodes {
  private controlDigest: Buffer;
  private viewDigest: Buffer | undefined;

  constructor(
    private control: string,
    private viewCode: string | undefined = undefined,
  ) {
    distinct(control, viewCode);
    this.controlDigest = digest(control);
    this.viewDigest = viewCode === undefined ? undefined : digest(viewCode);
  }

  /** The access level `presented` grants, or undefined when it is neither code. */
  levelOf(presented: string): AccessLevel | undefined {
    const candidate = digest(presented);
    const control = timingSafeEqual(candidate, this.controlDigest);
    // Always compared when there is a view code, even after a match, so both take the same time.
    const view = this.viewDigest !== undefined && timingSafeEqual(candidate, this.viewDigest);
    if (control) return 'control';
    return view ? 'view' : undefined;
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
    this.controlDigest = digest(code);
  }

  setView(code: string | undefined): void {
    distinct(this.control, code);
    this.viewCode = code;
    this.viewDigest = code === undefined ? undefined : digest(code);
  }
}
