/**
 * Protocol limits and version, shared by the server (which enforces them) and the
 * client (which respects them before sending).
 */

/** Version of the wire protocol. A client that sees another version asks the user to reload. */
export const PROTOCOL_VERSION = 1;

/** Response header that carries {@link PROTOCOL_VERSION} on every API response. */
export const PROTOCOL_HEADER = 'X-Webbridge-Protocol';

/**
 * Response header of every request that presented a code: `control` for the access code,
 * `view` for the view code (state, events and media only; actions and uploads answer 403
 * `view_only`). A client shows that it is watching when it reads `view`.
 */
export const ACCESS_HEADER = 'X-Webbridge-Access';

/**
 * Response header of GET /api/locale: the client address the host saw, after any trusted
 * proxy's forwarded headers (`--trust-proxy`). `webbridge check-url` reads it to tell whether a
 * proxy's forwarding is believed; it tells a client nothing but its own address.
 */
export const CLIENT_ADDRESS_HEADER = 'X-Webbridge-Client-Address';

/** What a presented code allows: everything, or watching. */
export type AccessLevel = 'control' | 'view';

/** Largest JSON action body, in bytes. Larger bodies are refused with 413 before they are read. */
export const MAX_JSON = 256 * 1024;

/**
 * Default largest upload, in bytes (configurable on the server).
 * @default 26214400 (25 MiB)
 */
export const DEFAULT_UPLOAD_LIMIT = 25 * 1024 * 1024;

/**
 * Default lifetime of a media id, in milliseconds (configurable on the server).
 * @default 300000 (5 minutes)
 */
export const DEFAULT_MEDIA_TTL_MS = 5 * 60 * 1000;

/**
 * Default idle time after which the event stream sends a heartbeat, in milliseconds.
 * A client that hears nothing for two intervals reconnects.
 * @default 15000
 */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** How long an `actionId` is remembered so a retried action is not applied twice. */
export const ACTION_ID_TTL_MS = 10 * 60 * 1000;

/** Longest text of a message a client may send, in UTF-16 code units. */
export const MAX_MESSAGE_TEXT = 100_000;
