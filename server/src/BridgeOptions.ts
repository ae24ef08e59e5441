import type { BridgeMemory } from './BridgeMemory';
import type { DeviceStore } from './devices/DeviceStore';
import type { HostAdapter } from './HostAdapter';

/** Options of {@link createBridge}. */
export interface BridgeOptions {
  /** The host app behind the bridge. */
  readonly host: HostAdapter;
  /**
   * What the host's bridges remember across bridges of one run (seqs, action ids). A host that
   * may stop sharing and share again keeps one and passes it to every bridge it builds.
   * @default a fresh `BridgeMemory` for this bridge alone
   */
  readonly memory?: BridgeMemory;
  /** The current access code (Bearer token). Change it later with `setAccessCode`. Never logged. */
  readonly accessCode: string;
  /**
   * An optional view code: it reads state, events and media, and is refused (403 `view_only`)
   * on actions and uploads. Change it later with `setViewCode`. Never logged.
   */
  readonly viewCode?: string;
  /**
   * Where paired devices are kept (hashes of their credentials, names, roles, when seen). A host
   * with a database keeps them there, so phones stay paired across restarts.
   * @default a `MemoryDeviceStore` (paired until the process ends)
   */
  readonly devices?: DeviceStore;
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
  /**
   * The URL phones use when they reach the host through a proxy or a tailnet
   * (`https://name[:port][/base]`): its name is accepted by the Host check besides the host's
   * own; with a path, the app answers under it as well as at the root.
   */
  readonly publicUrl?: string;
  /**
   * Proxies whose `Forwarded` / `X-Forwarded-For`, `-Proto`, `-Host` headers count: addresses,
   * CIDR ranges or `loopback`. From any other connection those headers are ignored.
   * @default none
   */
  readonly trustProxy?: readonly string[];
}

/**
 * How the listener is secured. Off loopback the bridge speaks HTTPS unless `insecureHttp` says
 * otherwise: with `certFile`/`keyFile` when given, else with a certificate from the local
 * authority kept in `authorityDir`.
 */
export interface TransportOptions {
  /** Folder of the local certificate authority; made there (key mode 0600) on first use. */
  readonly authorityDir?: string;
  /** A person's own certificate (PEM, chain after the leaf) instead of the local authority. */
  readonly certFile?: string;
  /** The key of `certFile` (PEM). */
  readonly keyFile?: string;
  /** Speak HTTPS on loopback too. @default false */
  readonly tlsOnLoopback?: boolean;
  /** Plain HTTP off loopback: the code and every message cross the network in clear. @default false */
  readonly insecureHttp?: boolean;
}

/** Where the bridge listens. */
export interface ListenOptions {
  /** 0 picks any free port. */
  readonly port: number;
  /** `127.0.0.1` (default), `0.0.0.0` for the LAN, or a specific address. */
  readonly hostname: string;
  /** How the listener is secured; see {@link TransportOptions}. */
  readonly transport?: TransportOptions;
}

/** The local certificate authority a device trusts once. */
export interface AuthorityInfo {
  /** SHA-256 fingerprint, as a device shows it before trusting the certificate. */
  readonly fingerprint: string;
  /** The certificate (PEM); public. */
  readonly certificatePem: string;
  /**
   * Where a device downloads it before it trusts the https address: plain HTTP on the same
   * port (a device cannot yet verify https; it checks the fingerprint instead).
   */
  readonly downloadUrls: readonly string[];
  /**
   * Set when the authority kept in the data dir was replaced on this start (it had no name
   * constraints): the fingerprint devices trusted before, and why. Devices must trust the new
   * one, and should remove the old one.
   */
  readonly replaced?: { readonly previousFingerprint: string; readonly reason: 'unconstrained' };
  /** Addresses and names left out of the certificate: the authority may not vouch for them. */
  readonly leftOut: readonly string[];
}

/** The address the bridge ended up listening on. */
export interface ListeningAddress {
  readonly port: number;
  readonly hostname: string;
  /** `https` or `http`. */
  readonly scheme: 'https' | 'http';
  /** Every URL a browser can use (one per reachable address). */
  readonly urls: readonly string[];
  /** The local authority, when the listener serves a certificate it issued. */
  readonly authority?: AuthorityInfo;
}
