/** Why an event stream could not be read further. */
export type EventStreamErrorKind =
  /** A frame was not JSON or did not match the contract's schema. */
  | 'invalid_frame'
  /** The server speaks another protocol version: the page must be reloaded. */
  | 'protocol_mismatch'
  /** The stream broke the parser's limits (an oversized frame). */
  | 'parse_error';

/**
 * Raised by {@link readEventStream} when the stream cannot be trusted any more. The connection
 * treats it as a reason to drop its state and reconnect for a fresh snapshot, never as a crash.
 */
export class EventStreamError extends Error {
  override readonly name = 'EventStreamError';

  constructor(
    readonly kind: EventStreamErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
