import type { HostAdapter } from './adapter';

/** Options of {@link createBridge}. */
export interface BridgeOptions {
  /** The host app behind the bridge. */
  readonly host: HostAdapter;
  /** The current access code (Bearer token). Change it later with `setAccessCode`. Never logged. */
  readonly accessCode: string;
  /** Directory uploads are streamed into (created if missing). */
  readonly uploadDir: string;
  /** Directory of the built web client served at `/`, if any. */
  readonly staticDir?: string;
  /** @default 15000 */
  readonly heartbeatMs?: number;
  /** @default 300000 */
  readonly mediaTtlMs?: number;
  /** @default 26214400 */
  readonly uploadLimit?: number;
  /** Log level of the bridge's pino logger, or `silent`. @default 'info' */
  readonly logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
}

/** Where the bridge listens. */
export interface ListenOptions {
  /** 0 picks any free port. */
  readonly port: number;
  /** `127.0.0.1` (default), `0.0.0.0` for the LAN, or a specific address. */
  readonly hostname: string;
}

/** The address the bridge ended up listening on. */
export interface ListeningAddress {
  readonly port: number;
  readonly hostname: string;
  /** Every URL a browser can use (one per reachable address). */
  readonly urls: readonly string[];
}
