import type { AccessLevel } from '@webbridge/contract';
import { sameSecret } from './authGuard';

/**
 * The codes a browser may present: the access code (control) and an optional view code
 * (watching only). Both change at run time; each check compares against both in constant time,
 * so timing tells neither which code exists nor how close a guess came.
 */
export class AccessCodes {
  constructor(
    private control: string,
    private viewCode: string | undefined = undefined,
  ) {}

  /** The access level `presented` grants, or undefined when it is neither code. */
  levelOf(presented: string): AccessLevel | undefined {
    const control = sameSecret(presented, this.control);
    // Always compared, even after a match, so both branches take the same time.
    const view = this.viewCode !== undefined && sameSecret(presented, this.viewCode);
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
    this.control = code;
  }

  setView(code: string | undefined): void {
    this.viewCode = code;
  }
}
