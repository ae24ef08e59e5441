import type { ErrorCode, SessionIdentity } from '@webbridge/contract';
import { ERROR_STATUS } from '@webbridge/contract';

/** Extra members of a problem body, beside type/title/status/detail/code. */
export interface ProblemExtras {
  readonly issues?: { path: (string | number)[]; message: string }[];
  readonly current?: SessionIdentity;
  /** Seconds, sent as `Retry-After` with 429. */
  readonly retryAfter?: number;
}

let savedStackTraceLimit = Error.stackTraceLimit;

/**
 * A refusal is an answer, not a bug: where it was thrown says nothing its code and detail do
 * not, and capturing V8's stack trace was the largest single cost of a 409. So the stack is
 * skipped while the error is made (the limit is restored right after `super`).
 */
function withoutStack(detail: string): string {
  savedStackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return detail;
}

/**
 * The one error type of the bridge and of hosts: a protocol error code with a readable
 * detail. Rendered as problem+json by `renderProblem`. Anything else thrown becomes a 500
 * without internals in the body.
 *
 * @example
 * ```ts
 * throw new BridgeError('not_applicable', 'Nothing is streaming, so there is nothing to stop.');
 * ```
 */
export class BridgeError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extras: ProblemExtras;

  constructor(code: ErrorCode, detail: string, extras: ProblemExtras = {}) {
    super(withoutStack(detail));
    Error.stackTraceLimit = savedStackTraceLimit;
    this.name = 'BridgeError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.extras = extras;
  }
}
