import type { ErrorCode, Problem, SessionIdentity } from '@webbridge/contract';

/**
 * Failures that happen on the client's side of the wire, beside the server's {@link ErrorCode}s:
 * - `network`: the request did not complete (no answer, connection lost);
 * - `aborted`: the caller's signal aborted it;
 * - `bad_response`: the server answered something the contract does not allow;
 * - `no_state`: a session-sensitive action was asked for before any state was known.
 */
export type ClientErrorCode = 'network' | 'aborted' | 'bad_response' | 'no_state';

/**
 * The one error the client throws. `code` is the server's problem code when there is a
 * problem body, otherwise a {@link ClientErrorCode}.
 *
 * @example
 * ```ts
 * try {
 *   await client.action({ action: 'approve', approvalId, decision: 'allow' });
 * } catch (error) {
 *   if (error instanceof BridgeClientError && error.code === 'not_applicable') showGone();
 *   if (error instanceof BridgeClientError && error.code === 'rate_limited') wait(error.retryAfterSeconds);
 * }
 * ```
 */
export class BridgeClientError extends Error {
  override readonly name = 'BridgeClientError';
  /** The server's problem code, or what went wrong on the client's side. */
  readonly code: ErrorCode | ClientErrorCode;
  /** The HTTP status; 0 when there was no response. */
  readonly status: number;
  /** The problem+json body, when the server sent one. */
  readonly problem: Problem | undefined;
  /**
   * How long the server asked the client to wait before trying again, in whole seconds, from
   * the `Retry-After` header (delta-seconds or an HTTP date) of a 429 or 503; `null` when the
   * answer did not say (or there was no answer).
   */
  readonly retryAfterSeconds: number | null;

  constructor(
    init: {
      code: ErrorCode | ClientErrorCode;
      status: number;
      detail: string;
      problem?: Problem;
      /** @default null */
      retryAfterSeconds?: number | null;
    },
    options?: { cause?: unknown },
  ) {
    super(init.detail, options);
    this.code = init.code;
    this.status = init.status;
    this.problem = init.problem;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }

  /** The problem's human-readable explanation (or the client's own). */
  get detail(): string {
    return this.message;
  }

  /** On 409 `session_mismatch`: where a send would land now. */
  get current(): SessionIdentity | undefined {
    return this.problem?.current;
  }
}
