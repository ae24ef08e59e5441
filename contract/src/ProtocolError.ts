import type { SessionIdentity } from './identity';
import { ERROR_STATUS, ERROR_TITLE, type ErrorCode, type Problem, problemType } from './problem';
import type { ApprovalDecision } from './snapshot';

/** Extra members of a problem body, beside type/title/status/detail/code. */
export interface ProblemExtras {
  readonly issues?: { path: (string | number)[]; message: string }[];
  readonly current?: SessionIdentity;
  /** An `approve` that came too late: how the approval was answered. */
  readonly decided?: ApprovalDecision & { readonly approvalId: string };
  /** Seconds, sent as `Retry-After` with 429. */
  readonly retryAfter?: number;
}

/** V8's stack depth knob; absent on other runtimes, where the trick below is a no-op. */
const errorClass = Error as { stackTraceLimit?: number };
let savedStackTraceLimit = errorClass.stackTraceLimit;

/**
 * A refusal is an answer, not a bug: where it was thrown says nothing its code and detail do
 * not, and capturing V8's stack trace was the largest single cost of a 409. So the stack is
 * skipped while the error is made (the limit is restored right after `super`).
 */
function withoutStack(detail: string): string {
  savedStackTraceLimit = errorClass.stackTraceLimit;
  if (savedStackTraceLimit !== undefined) errorClass.stackTraceLimit = 0;
  return detail;
}

/**
 * The one error type of the protocol, for the bridge and for hosts alike: a protocol error code
 * with a readable detail. Pure and runtime-agnostic, so a host's domain code can throw it
 * without importing the server. Anything else thrown becomes a 500 without internals.
 *
 * @example
 * ```ts
 * throw new ProtocolError('not_applicable', 'Nothing is streaming, so there is nothing to stop.');
 * ```
 */
export class ProtocolError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extras: ProblemExtras;

  constructor(code: ErrorCode, detail: string, extras: ProblemExtras = {}) {
    super(withoutStack(detail));
    if (savedStackTraceLimit !== undefined) errorClass.stackTraceLimit = savedStackTraceLimit;
    this.name = 'ProtocolError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.extras = extras;
  }
}

/** The problem+json body of an error (RFC 9457). Anything but a {@link ProtocolError} is a bare 500. */
export function problemBody(error: unknown): Problem {
  const known =
    error instanceof ProtocolError ? error : new ProtocolError('internal', 'Something went wrong.');
  const body: Problem = {
    type: problemType(known.code),
    title: ERROR_TITLE[known.code],
    status: known.status,
    detail: known.message,
    code: known.code,
  };
  if (known.extras.issues) body.issues = known.extras.issues;
  if (known.extras.current) body.current = known.extras.current;
  if (known.extras.decided) body.decided = known.extras.decided;
  return body;
}

/**
 * The headers a problem's code asks for besides its content type: `WWW-Authenticate: Bearer`
 * on 401, `Retry-After` when the error names one.
 */
export function problemHeaders(error: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!(error instanceof ProtocolError)) return headers;
  if (error.code === 'unauthorized') headers['WWW-Authenticate'] = 'Bearer';
  if (error.extras.retryAfter !== undefined) headers['Retry-After'] = String(error.extras.retryAfter);
  return headers;
}
