import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StartHostOptions, startHost } from '@webbridge/host';

/** The access code every test host starts with. */
export const TEST_CODE = 'test-code-7f3k-9q2m';

/** Options a test may change. */
export interface TestHostOptions {
  readonly dataDir?: string;
  /** A fixed port (to restart a host where clients expect it); default: any free port. */
  readonly port?: number;
  readonly heartbeatMs?: number;
  readonly mediaTtlMs?: number;
  readonly uploadLimit?: number;
  readonly echoDelayMs?: number;
  readonly freeAuthFailures?: number;
  /** The first lockout after the free failures (doubling after that). @default 1000 */
  readonly authLockoutMs?: number;
  /** Model providers beside the echo model (e.g. a scripted one for browser tests). */
  readonly providers?: StartHostOptions['providers'];
  /** Collects the bridge's log lines (at level info) instead of discarding them. */
  readonly logLines?: string[];
  /** Speak HTTPS (certificate from the local authority in `<dataDir>/tls`). */
  readonly tls?: boolean;
  /** The access code. @default TEST_CODE */
  readonly accessCode?: string;
  /** A view code (watch only). */
  readonly viewCode?: string;
  /** The host's push options (a local push service for tests); on with defaults unless set. */
  readonly push?: StartHostOptions['push'];
  /** The bridge's clock (pairing tokens, devices' last seen, the throttle). @default Date.now */
  readonly now?: () => number;
  /**
   * Pairings one address may make at once (the bridge's default is 10, one more a minute);
   * tests pair many browsers from loopback. @default 1000
   */
  readonly pairingBurst?: number;

  /** ACP agents beside the built-in loop (e.g. `{ entries: [{ name: 'fake', app }] }`). */
  readonly agents?: StartHostOptions['agents'];
  /** Folders a project may point at, besides `<dataDir>/workspace`. */
  readonly workspaceRoots?: readonly string[];
}

/** A reference host listening on a free loopback port, with its own data directory. */
export interface TestHost {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly host: Awaited<ReturnType<typeof startHost>>;
  /** Headers with the access code (and JSON content type). */
  auth(extra?: Record<string, string>): Record<string, string>;
  /** Stops the host; keeps the data directory unless `removeData`. */
  close(removeData?: boolean): Promise<void>;
}

/** Starts a real reference host (SQLite, echo model) on 127.0.0.1:0. */
export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'webbridge-test-'));
  const host = await startHost({
    dataDir,
    port: options.port ?? 0,
    hostname: '127.0.0.1',
    accessCode: options.accessCode ?? TEST_CODE,
    ...(options.viewCode === undefined ? {} : { viewCode: options.viewCode }),
    ...(options.push === undefined ? {} : { push: options.push }),
    ...(options.tls ? { transport: { tlsOnLoopback: true } } : {}),
    echoDelayMs: options.echoDelayMs ?? 5,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    mediaTtlMs: options.mediaTtlMs ?? 300_000,
    uploadLimit: options.uploadLimit ?? 25 * 1024 * 1024,
    logLevel: options.logLines ? 'info' : 'silent',
    ...(options.providers ? { providers: options.providers } : {}),
    ...(options.agents ? { agents: options.agents } : {}),
    ...(options.workspaceRoots ? { workspaceRoots: options.workspaceRoots } : {}),
    tuning: {
      authThrottle: {
        freeFailures: options.freeAuthFailures ?? 1000,
        ...(options.authLockoutMs === undefined ? {} : { baseDelayMs: options.authLockoutMs }),
      },
      pairingRate: { burst: options.pairingBurst ?? 1000 },
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.logLines
        ? { logDestination: { write: (line: string) => options.logLines?.push(line) } }
        : {}),
    },
  });
  const port = host.address.port;
  let closed = false;
  return {
    url: `${host.address.scheme}://127.0.0.1:${port}`,
    port,
    dataDir,
    host,
    auth: (extra = {}) => ({
      Authorization: `Bearer ${TEST_CODE}`,
      'Content-Type': 'application/json',
      ...extra,
    }),
    async close(removeData = false) {
      if (!closed) {
        closed = true;
        await host.close();
      }
      if (removeData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
