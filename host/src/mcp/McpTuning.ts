/** Where the MCP servers' lifecycle is reported (the CLI passes its logger). Lines hold no secrets. */
export type McpLog = (level: 'info' | 'warn' | 'error', message: string) => void;

/** Timings of the MCP connections; tests shorten them. */
export interface McpTuning {
  /** Longest wait for a server to start (handshake, then each page of its tool list). @default 30000 */
  readonly startTimeoutMs?: number;
  /** After a call timed out, how long a ping may take before the server counts as stuck. @default 5000 */
  readonly pingTimeoutMs?: number;
  /** First pause before a failed server is started again; it doubles with each failure. @default 1000 */
  readonly backoffInitialMs?: number;
  /** Longest pause between restarts. @default 300000 */
  readonly backoffMaxMs?: number;
}

/** The defaults of {@link McpTuning}. */
export const DEFAULT_MCP_TUNING: Required<McpTuning> = {
  startTimeoutMs: 30_000,
  pingTimeoutMs: 5_000,
  backoffInitialMs: 1_000,
  backoffMaxMs: 300_000,
};
