import { DEFAULT_HEARTBEAT_MS, DEFAULT_MEDIA_TTL_MS, DEFAULT_UPLOAD_LIMIT } from '@webbridge/contract';
import type { Hono } from 'hono';
import type { DestinationStream } from 'pino';
import { ActionDispatcher } from './actions/ActionDispatcher';
import { type AppDeps, createApp } from './app';
import { BridgeMemory } from './BridgeMemory';
import type { BridgeOptions } from './BridgeOptions';
import { Devices, type ForgetListener, type ListedDevice } from './devices/Devices';
import { PairingRate, type PairingRateOptions } from './devices/PairingRate';
import { PairingTokens } from './devices/PairingTokens';
import { MemoryDeviceStore } from './embedding/MemoryDeviceStore';
import type { BridgeEnv } from './env';
import { EventHub } from './events/EventHub';
import type { ConnectionInfo } from './events/Subscription';
import type { BridgeFiles } from './files/BridgeFiles';
import { AccessCodes } from './guards/AccessCodes';
import { AuthThrottle, type AuthThrottleOptions } from './guards/AuthThrottle';
import { TrustedProxies } from './guards/clientAddress';
import { createLogger } from './logging/createLogger';
import { holderOf, MediaRegistry } from './media/MediaRegistry';
import { WireMapper } from './media/WireMapper';

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

/** Options of {@link createBridgeCore}: the bridge's, with its edges given instead of made. */
export interface BridgeCoreOptions extends Omit<BridgeOptions, 'uploadDir' | 'staticDir'>, BridgeTuning {
  /** Where uploads go and media is read from (`MemoryFiles` in a page). */
  readonly files: BridgeFiles;
  /** The names the Host header may carry (DNS rebinding): asked on every request. */
  readonly allowedHosts: () => ReadonlySet<string>;
  /** Adds the routes of the built web client after the API's. @default none */
  readonly serveStatic?: (app: Hono<BridgeEnv>) => void;
  /** The local authority's certificate, served at /ca.crt when there is one. @default none */
  readonly authorityPem?: () => string | undefined;
}

/** The bridge without a listener: an app that answers web-standard Requests, and its controls. */
export interface BridgeCore {
  /** The Hono app: `app.fetch(request)` answers any request as the bridge does. */
  readonly app: Hono<BridgeEnv>;
  /** Everything the routes use (the Node adapter's action lane shares it). */
  readonly deps: AppDeps;
  setAccessCode(code: string): void;
  setViewCode(code: string | undefined): void;
  pairingToken(role: 'control' | 'view'): string;
  readonly devices: BridgeDevices;
  readonly subscriberCount: number;
  connections(): ConnectionInfo[];
  /** Closes every event stream. */
  dispose(): void;
}

/**
 * The bridge on web-standard APIs only: every route, guard, stream and refusal, answering
 * `Request`s with `Response`s, with no listener, no disk and no TLS. `createBridge` (Node) adds
 * those around it; the web client's offline mocks run it in the page, behind MSW's worker.
 *
 * @example
 * ```ts
 * const core = createBridgeCore({ host, accessCode, files: new MemoryFiles(), allowedHosts: () => new Set(['localhost']) });
 * const response = await core.app.fetch(new Request('http://localhost/api/state', { headers }));
 * ```
 */
export function createBridgeCore(options: BridgeCoreOptions): BridgeCore {
  const codes = new AccessCodes(options.accessCode, options.viewCode);
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
    allowedHosts: options.allowedHosts,
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
    files: options.files,
    uploadLimit: options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT,
    serveStatic: options.serveStatic,
    authorityPem: options.authorityPem ?? (() => undefined),
  };
  return {
    app: createApp(deps),
    deps,
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
    get subscriberCount() {
      return hub.size;
    },
    connections: () => hub.connections(),
    dispose: () => hub.dispose(),
  };
}
