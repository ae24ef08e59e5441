import type { AccessLevel } from '@webbridge/contract';
import type { Hono } from 'hono';
import { actionLane } from './adapters/actionLane';
import { nodeFiles } from './adapters/nodeFiles';
import {
  isLoopback,
  isWildcard,
  lanAddresses,
  listenNode,
  type NodeListener,
  ownHostnames,
} from './adapters/nodeListener';
import { type SecuredListener, secureListener } from './adapters/tls/secureListener';
import type { AuthorityInfo, BridgeOptions, ListeningAddress, ListenOptions } from './BridgeOptions';
import { type BridgeDevices, type BridgeTuning, createBridgeCore } from './createBridgeCore';
import type { BridgeEnv } from './env';
import type { ConnectionInfo } from './events/Subscription';
import { hostnameOf } from './guards/hostGuard';
import { describeError } from './logging/describeError';
import { staticRoutes } from './routes/staticRoutes';

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
  const files = nodeFiles(options.uploadDir);
  const { staticDir } = options;
  // Node's edges around the web-standard core: the disk, the built page, the listener and TLS.
  const core = createBridgeCore({
    ...options,
    files,
    allowedHosts: () => allowed,
    ...(staticDir ? { serveStatic: (app: Hono<BridgeEnv>) => staticRoutes(app, staticDir) } : {}),
    authorityPem: () => secured?.authority?.certificatePem,
  });
  const { app, deps } = core;
  const logger = deps.logger;
  const lane = actionLane(deps);

  return {
    app,
    async listen({ port, hostname, transport = {} }) {
      if (listener) throw new Error('The bridge is already listening.');
      if (stopped) throw new Error('A stopped bridge cannot listen again; create a new one.');
      // Certificates are checked before anything listens: a bad pair starts nothing.
      secured = await secureListener(hostname, transport, () => allowed);
      await files.removeStale();
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
    setAccessCode: (code) => core.setAccessCode(code),
    setViewCode: (code) => core.setViewCode(code),
    pairingToken: (role) => core.pairingToken(role),
    devices: core.devices,
    get authority() {
      return info;
    },
    get subscriberCount() {
      return core.subscriberCount;
    },
    connections: () => core.connections(),
    async stop() {
      stopped = true;
      if (hostRefresh) clearInterval(hostRefresh);
      core.dispose();
      const current = listener;
      listener = undefined;
      await current?.close();
    },
  };
}
