import type { AccessLevel } from '@webbridge/contract';
import { DEFAULT_HEARTBEAT_MS, DEFAULT_MEDIA_TTL_MS, DEFAULT_UPLOAD_LIMIT } from '@webbridge/contract';
import type { Hono } from 'hono';
import type { DestinationStream } from 'pino';
import { ActionDispatcher } from './actions/ActionDispatcher';
import { actionLane } from './adapters/actionLane';
import {
  isLoopback,
  isWildcard,
  lanAddresses,
  listenNode,
  type NodeListener,
  ownHostnames,
} from './adapters/nodeListener';
import { type AppDeps, createApp } from './app';
import { BridgeMemory } from './BridgeMemory';
import type { AuthorityInfo, BridgeOptions, ListeningAddress, ListenOptions } from './bridge';
import { Devices, type ForgetListener, type ListedDevice } from './devices/Devices';
import { PairingRate, type PairingRateOptions } from './devices/PairingRate';
import { PairingTokens } from './devices/PairingTokens';
import { MemoryDeviceStore } from './embedding/MemoryDeviceStore';
import type { BridgeEnv } from './env';
import { EventHub } from './events/EventHub';
import type { ConnectionInfo } from './events/Subscription';
import { AccessCodes } from './guards/AccessCodes';
import { AuthThrottle, type AuthThrottleOptions } from './guards/AuthThrottle';
import { TrustedProxies } from './guards/clientAddress';
import { hostnameOf } from './guards/hostGuard';
import { createLogger } from './logging/createLogger';
import { describeError } from './logging/describeError';
import { holderOf, MediaRegistry } from './media/MediaRegistry';
import { WireMapper } from './media/WireMapper';
import { type SecuredListener, secureListener } from './tls/secureListener';
import { removeStaleParts } from './upload/removeStaleParts';

/** A bridge: the app, its listener and the controls a host needs. */
export interface Bridge {
  /** The Hono app (usable without listening, e.g. `app.request()`). */
  readonly app: Hono<BridgeEnv>;
  /** Starts listening. Resolves with the real port and the URLs a browser can use. */
  listen(options: ListenOptions): Promise<ListeningAddress>;
  /**
   * Replaces the access code: the old one stops working at once, every event stream closes
   * (clients holding the new code reconnect with a fresh snapshot) and every media id issued
   * so far is revoked (404 from now on).
   */
  setAccessCode(code: string): void;
  /**
   * Sets, replaces or (with undefined) removes the view code, with the same effect on streams
   * and media ids as {@link Bridge.setAccessCode}.
   */
  setViewCode(code: string | undefined): void;
  /**
   * A one-time pairing token for a link or QR code (`<url>/#pair=<token>`): redeemed once
   * within 10 minutes at POST /api/pair for a device credential with `role`.
   */
  pairingToken(role: AccessLevel): string;
  /** The paired devices: listed, forgotten, and watched for forgetting (push subscriptions). */
  readonly devices: BridgeDevices;
  /** The local certificate authority, once the bridge listens with a certificate it issued. */
  readonly authority: AuthorityInfo | undefined;
  /** Number of open event streams. */
  readonly subscriberCount: number;
  /** The connected browsers (one per open event stream), oldest first. */
  connections(): ConnectionInfo[];
  /** Closes every event stream, the listener and every open connection. */
  stop(): Promise<void>;
}

/** The paired devices of a bridge, as its host sees them. */
export interface BridgeDevices {
  /** Every paired device, in pairing order, each with when it was last seen. */
  list(): ListedDevice[];
  /**
   * Forgets a device: its credential is a wrong code from now on, its event streams end and
   * the media ids issued to it are revoked; other browsers' streams and ids are untouched.
   * False when there is no such device.
   */
  forget(id: string): boolean;
  /**
   * Calls `listener` with each device forgotten from now on (by the console, a page, or a
   * rotation). Returns the function that stops listening.
   */
  onForget(listener: ForgetListener): () => void;
}

/** Options beyond {@link BridgeOptions} that tests tune. */
export interface BridgeTuning {
  readonly authThrottle?: AuthThrottleOptions;
  /** How often one client may pair successfully. */
  readonly pairingRate?: PairingRateOptions;
  /** The clock of pairing tokens and devices' last-seen times. @default Date.now */
  readonly now?: () => number;
  /** Where log lines go (default: stdout). Tests collect them to prove no secret is logged. */
  readonly logDestination?: DestinationStream;
}

/**
 * Builds the bridge around a host.
 *
 * @example
 * ```ts
 * const bridge = createBridge({ host, accessCode, uploadDir: join(dataDir, 'uploads') });
 * const { urls } = await bridge.listen({ port: 7878, hostname: '127.0.0.1' });
 * // later
 * await bridge.stop();
 * ```
 */
export function createBridge(options: BridgeOptions & BridgeTuning): Bridge {
  const codes = new AccessCodes(options.accessCode, options.viewCode);
  // The public URL's name is the server's too: a proxy or Tailscale Serve passes it on as Host.
  const publicUrl = options.publicUrl === undefined ? undefined : new URL(options.publicUrl);
  const publicHost = publicUrl === undefined ? undefined : hostnameOf(publicUrl.host);
  // A public URL with a path mounts the app there too (adapters/basePath.ts).
  const basePath = publicUrl?.pathname.replace(/\/+$/, '') || undefined;
  const withPublic = (own: ReadonlySet<string>): ReadonlySet<string> =>
    publicHost === undefined ? own : new Set([...own, publicHost]);
  let allowed: ReadonlySet<string> = withPublic(ownHostnames('127.0.0.1'));
  let listener: NodeListener | undefined;
  let secured: SecuredListener | undefined;
  let stopped = false;
  let hostRefresh: NodeJS.Timeout | undefined;
  let info: AuthorityInfo | undefined;
  const logger = createLogger(options.logLevel ?? 'info', options.logDestination);
  const media = new MediaRegistry(options.mediaTtlMs ?? DEFAULT_MEDIA_TTL_MS);
  const wire = new WireMapper(media);
  const memory = options.memory ?? new BridgeMemory();
  const hub = new EventHub(options.host, memory);
  const now = options.now ?? Date.now;
  const devices = new Devices(options.devices ?? new MemoryDeviceStore(), now);
  // Devices paired under a code the host no longer has are forgotten, however it changed.
  devices.bindCodes(options.accessCode, options.viewCode);
  const tokens = new PairingTokens(now);
  // Whoever held a replaced code may hold media ids and resumable places too: revoke them all.
  const afterRotation = () => {
    media.revokeAll();
    hub.restartAll();
  };
  const forgetDevice = (id: string): boolean => {
    if (devices.forget(id) === undefined) return false;
    // Only what the device held ends: its streams and the media ids issued to it. Everyone
    // else's stream goes on (a device forgetting itself in a loop disturbs no one).
    media.revokeHolder(holderOf({ id }));
    hub.closeWhere((subscription) => subscription.info.deviceId === id);
    return true;
  };
  const deps: AppDeps = {
    host: options.host,
    logger,
    codes,
    throttle: new AuthThrottle(options.authThrottle, now),
    devices,
    tokens,
    pairings: new PairingRate(options.pairingRate, now),
    forgetDevice,
    allowedHosts: () => allowed,
    proxies: new TrustedProxies(options.trustProxy),
    hub,
    wire,
    media,
    dispatcher: new ActionDispatcher(
      options.host,
      media,
      memory.recentActions(options.host.readState().instanceId),
    ),
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    uploadDir: options.uploadDir,
    uploadLimit: options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT,
    staticDir: options.staticDir,
    authorityPem: () => secured?.authority?.certificatePem,
  };
  const app = createApp(deps);
  const lane = actionLane(deps);

  return {
    app,
    async listen({ port, hostname, transport = {} }) {
      if (listener) throw new Error('The bridge is already listening.');
      if (stopped) throw new Error('A stopped bridge cannot listen again; create a new one.');
      // Certificates are checked before anything listens: a bad pair starts nothing.
      secured = await secureListener(hostname, transport, () => allowed);
      await removeStaleParts(options.uploadDir);
      listener = await listenNode(app, port, hostname, secured.serving, lane, basePath);
      allowed = withPublic(ownHostnames(hostname));
      if (isWildcard(hostname) || secured.authority) {
        // Interface addresses change (DHCP, a new Wi-Fi): refresh the Host allow-list, and the
        // serving certificate's names with it (it is renewed near its end too).
        const live = listener;
        const renew = secured.refresh;
        hostRefresh = setInterval(() => {
          if (isWildcard(hostname)) allowed = withPublic(ownHostnames(hostname));
          renew().then(
            (next) => next && live.setCertificate(next),
            (error: unknown) => logger.error({ err: describeError(error) }, 'certificate renewal failed'),
          );
        }, 5_000);
        hostRefresh.unref();
      }
      const scheme = listener.secure ? 'https' : 'http';
      const hosts = isWildcard(hostname) ? ['127.0.0.1', ...lanAddresses()] : [hostname];
      const bracket = (h: string) => (h.includes(':') ? `[${h}]` : h);
      // An address the local authority may not vouch for (a public one) cannot be opened over HTTPS.
      const usable = secured.authority ? hosts.filter((h) => secured?.authority?.permits(h)) : hosts;
      const urls = usable.map((h) => `${scheme}://${bracket(h)}:${listener?.port}`);
      if (!listener.secure && !isLoopback(hostname)) {
        logger.warn(
          'serving plain HTTP off loopback: the access code and every message cross the network in clear',
        );
      }
      logger.info({ port: listener.port, scheme }, 'listening');
      const replaced = secured.authority?.replaced;
      if (replaced) {
        logger.warn(
          { previousFingerprint: replaced.previousFingerprint, fingerprint: secured.authority?.fingerprint },
          'the local certificate authority had no name constraints and was replaced: devices must trust the new one',
        );
      }
      if (secured.leftOut.length > 0) {
        logger.warn(
          { leftOut: secured.leftOut },
          'left out of the certificate: not a private address or local name',
        );
      }
      const authority = secured.authority && {
        fingerprint: secured.authority.fingerprint,
        certificatePem: secured.authority.certificatePem,
        downloadUrls: urls.map((url) => `${url.replace(/^https:/, 'http:')}/ca.crt`),
        leftOut: secured.leftOut,
        ...(replaced ? { replaced } : {}),
      };
      info = authority;
      return { port: listener.port, hostname, scheme, urls, ...(authority ? { authority } : {}) };
    },
    setAccessCode(code) {
      codes.setControl(code);
      // An old code is a wrong code, and so is everything it granted: every device, every link.
      tokens.voidRoles(['control', 'view']);
      devices.forgetWhere(() => true);
      devices.bindCodes(codes.current, codes.view);
      afterRotation();
      logger.info('access code rotated');
    },
    setViewCode(code) {
      codes.setView(code);
      tokens.voidRoles(['view']);
      devices.forgetWhere((device) => device.role === 'view');
      devices.bindCodes(codes.current, codes.view);
      afterRotation();
      logger.info(code === undefined ? 'view code removed' : 'view code rotated');
    },
    pairingToken: (role) => tokens.mint(role),
    devices: {
      list: () => devices.list(),
      forget: forgetDevice,
      onForget: (listener) => devices.onForget(listener),
    },
    get authority() {
      return info;
    },
    get subscriberCount() {
      return hub.size;
    },
    connections: () => hub.connections(),
    async stop() {
      stopped = true;
      if (hostRefresh) clearInterval(hostRefresh);
      hub.dispose();
      const current = listener;
      listener = undefined;
      await current?.close();
    },
  };
}
