import { DEFAULT_HEARTBEAT_MS, DEFAULT_MEDIA_TTL_MS, DEFAULT_UPLOAD_LIMIT } from '@webbridge/contract';
import type { Hono } from 'hono';
import type { DestinationStream } from 'pino';
import { ActionDispatcher } from './actions/ActionDispatcher';
import {
  isWildcard,
  lanAddresses,
  listenNode,
  type NodeListener,
  ownHostnames,
} from './adapters/nodeListener';
import { createApp } from './app';
import type { BridgeOptions, ListeningAddress, ListenOptions } from './bridge';
import type { BridgeEnv } from './env';
import { type ConnectionInfo, EventHub } from './events/EventHub';
import { AuthThrottle, type AuthThrottleOptions } from './guards/AuthThrottle';
import { createLogger } from './logging/createLogger';
import { MediaRegistry } from './media/MediaRegistry';
import { WireMapper } from './media/toWire';
import { removeStaleParts } from './upload/removeStaleParts';

/** A bridge: the app, its listener and the controls a host needs. */
export interface Bridge {
  /** The Hono app (usable without listening, e.g. `app.request()`). */
  readonly app: Hono<BridgeEnv>;
  /** Starts listening. Resolves with the real port and the URLs a browser can use. */
  listen(options: ListenOptions): Promise<ListeningAddress>;
  /** Replaces the access code: the old one stops working at once and its streams close. */
  setAccessCode(code: string): void;
  /** Number of open event streams. */
  readonly subscriberCount: number;
  /** The connected browsers (one per open event stream), oldest first. */
  connections(): ConnectionInfo[];
  /** Closes every event stream, the listener and every open connection. */
  stop(): Promise<void>;
}

/** Options beyond {@link BridgeOptions} that tests tune. */
export interface BridgeTuning {
  readonly authThrottle?: AuthThrottleOptions;
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
  let accessCode = options.accessCode;
  let allowed: ReadonlySet<string> = ownHostnames('127.0.0.1');
  let listener: NodeListener | undefined;
  let stopped = false;
  let hostRefresh: NodeJS.Timeout | undefined;
  const logger = createLogger(options.logLevel ?? 'info', options.logDestination);
  const media = new MediaRegistry(options.mediaTtlMs ?? DEFAULT_MEDIA_TTL_MS);
  const wire = new WireMapper(media);
  const hub = new EventHub(options.host);
  const app = createApp({
    host: options.host,
    logger,
    code: { current: () => accessCode },
    throttle: new AuthThrottle(options.authThrottle),
    allowedHosts: () => allowed,
    hub,
    wire,
    media,
    dispatcher: new ActionDispatcher(options.host, media),
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    uploadDir: options.uploadDir,
    uploadLimit: options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT,
    staticDir: options.staticDir,
  });

  return {
    app,
    async listen({ port, hostname }) {
      if (listener) throw new Error('The bridge is already listening.');
      if (stopped) throw new Error('A stopped bridge cannot listen again; create a new one.');
      await removeStaleParts(options.uploadDir);
      listener = await listenNode(app, port, hostname);
      allowed = ownHostnames(hostname);
      if (isWildcard(hostname)) {
        // Interface addresses change (DHCP, a new Wi-Fi): refresh the Host allow-list.
        hostRefresh = setInterval(() => {
          allowed = ownHostnames(hostname);
        }, 5_000);
        hostRefresh.unref();
      }
      const hosts = isWildcard(hostname) ? ['127.0.0.1', ...lanAddresses()] : [hostname];
      const urls = hosts.map((h) => `http://${h.includes(':') ? `[${h}]` : h}:${listener?.port}`);
      logger.info({ port: listener.port }, 'listening');
      return { port: listener.port, hostname, urls };
    },
    setAccessCode(code) {
      const old = accessCode;
      accessCode = code;
      hub.closeWhere((s) => s.accessCode === old);
      logger.info('access code rotated');
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
