/**
 * Why a request to an agent did not get an answer:
 * - `unavailable`: the agent is not running (failed to start, not configured, closed);
 * - `crashed`: its process ended or broke the protocol while the request was in flight;
 * - `needs_sign_in`: it answered "authentication required" (sign in on the host);
 * - `refused`: it answered the request with a JSON-RPC error (its message is kept);
 * - `unsupported`: it did not offer the capability (e.g. `session/load`).
 */
export type AgentErrorKind = 'unavailable' | 'crashed' | 'needs_sign_in' | 'refused' | 'unsupported';

/**
 * An error a person can read, from an ACP agent or its process. Messages name the agent and,
 * for a crash, end with the last lines of its stderr; they never hold the host's secrets (the
 * agent never had them, see `agentLaunch`).
 *
 * @example
 * ```ts
 * try {
 *   await connection.prompt(sessionId, [{ type: 'text', text: 'hi' }]);
 * } catch (error) {
 *   if (error instanceof AgentError && error.kind === 'crashed') showReplyError(error.message);
 * }
 * ```
 */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  readonly kind: AgentErrorKind;
  /** The agent's JSON-RPC error code, for `refused` and `needs_sign_in`. */
  readonly code: number | undefined;

  constructor(kind: AgentErrorKind, message: string, code?: number) {
    super(message);
    this.kind = kind;
    this.code = code;
  }
}
