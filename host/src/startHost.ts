import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  type Bridge,
  BridgeMemory,
  type BridgeOptions,
  type BridgeTuning,
  createBridge,
  type HostAdapter,
  type ListeningAddress,
  type TransportOptions,
} from '@webbridge/server';
import { createHostAdapter } from './adapter/createHostAdapter';
import { hostLocale } from './adapter/hostLocale';
import type { AgentEntry } from './agents/AgentEntry';
import type { AgentLog } from './agents/AgentLog';
import type { AgentTuning } from './agents/AgentProcess';
import { Agents } from './agents/Agents';
import { acpMcpServers } from './agents/acpMcpServers';
import { agentEntries } from './agents/agentEntries';
import type { ChatController } from './controller/ChatController';
import { openChatController } from './controller/openChatController';
import { inhibitorFor } from './keepAwake/inhibitorFor';
import { KeepAwake } from './keepAwake/KeepAwake';
import { McpServers } from './mcp/McpServers';
import type { McpLog, McpTuning } from './mcp/McpTuning';
import { loadMcpConfig } from './mcp/mcpConfig';
import type { ModelProvider } from './models/ModelProvider';
import { HostPush, type HostPushOptions } from './push/HostPush';

/** Options of {@link startHost}. */
export interface StartHostOptions {
  /** Holds `webbridge.db`, `uploads/` and the default `workspace/`. Created if missing. */
  readonly dataDir: string;
  /** The access code (Bearer token). Never logged. */
  readonly accessCode: string;
  /** An optional view code (watch only). Never logged. */
  readonly viewCode?: string;
  /**
   * How the listener is secured. Off loopback it speaks HTTPS with a certificate from the
   * local authority in `<dataDir>/tls` unless this says otherwise.
   * @default { authorityDir: '<dataDir>/tls' }
   */
  readonly transport?: TransportOptions;
  /** 0 picks any free port. @default 0 */
  readonly port?: number;
  /** @default '127.0.0.1' */
  readonly hostname?: string;
  /** Pause between echoed words. @default 30 */
  readonly echoDelayMs?: number;
  /** @default 15000 */
  readonly heartbeatMs?: number;
  /** @default 300000 */
  readonly mediaTtlMs?: number;
  /** @default 26214400 */
  readonly uploadLimit?: number;
  /** More folders projects may use, besides `<dataDir>/workspace`. */
  readonly workspaceRoots?: readonly string[];
  /** @default 'silent' (the CLI passes 'info') */
  readonly logLevel?: BridgeOptions['logLevel'];
  /** The web client's folder; `null` serves none. @default the `dist/` of @webbridge/web, if built */
  readonly staticDir?: string | null;
  /** Model providers beside the echo model (see `createModelProviders`). */
  readonly providers?: readonly ModelProvider[];
  /** Bridge tuning for tests (e.g. a faster auth throttle). */
  readonly tuning?: BridgeTuning;
  /**
   * An MCP config file read after `<dataDir>/mcp.json` (which is read when it exists); its
   * servers replace those of the same name. A file that cannot be read or parsed is a startup error.
   */
  readonly mcpConfig?: string;
  /** Where the MCP servers' lifecycle lines go. @default nowhere */
  readonly mcpLog?: McpLog;
  /** MCP timings (tests shorten them). */
  readonly mcpTuning?: McpTuning;
  /** The page's language, served at /api/locale (BCP 47; unsupported → English). @default 'en' */
  readonly language?: string;
  /**
   * ACP agents beside the built-in loop: `<dataDir>/agents.json` is read when it exists, then
   * `configFile`, then each `--agent` flag; `knownOnPath` also offers the well-known agents
   * found on that PATH (the CLI passes its PATH; tests leave it out). Each agent's process
   * starts on first use and its process group ends with the host.
   */
  readonly agents?: {
    /** `--agent NAME=COMMAND` values. */
    readonly flags?: readonly string[];
    /** `--agents-config`: an agents file read after `<dataDir>/agents.json`. */
    readonly configFile?: string;
    /** Offer opencode, claude, codex and gemini when found on this PATH. */
    readonly knownOnPath?: string;
    /** More entries, added last (e.g. in-process agent apps in tests). */
    readonly entries?: readonly AgentEntry[];
    /** Where lifecycle lines and the agents' stderr go. @default nowhere */
    readonly log?: AgentLog;
    readonly tuning?: AgentTuning;
  };
  /**
   * Web Push to the paired devices that subscribe (on unless `false`). Its options are for
   * tests and benchmarks (a local push service, short retries), and for the CLI: `replyTitles`
   * (`--push-reply-titles`) and delivery reports.
   */
  readonly push?: false | Omit<HostPushOptions, 'dataDir'>;
  /** The URL phones reach the host at through a proxy or a tailnet (its name passes the Host check). */
  readonly publicUrl?: string;
  /** Proxies whose forwarded headers count: addresses, CIDR ranges or `loopback`. @default none */
  readonly trustProxy?: readonly string[];
  /**
   * Keep the machine from sleeping while a reply runs or an approval waits (systemd-inhibit,
   * caffeinate; `env` is where its PATH is read, for tests). The CLI turns it on.
   * @default false
   */
  readonly keepAwake?: boolean | { readonly env: Readonly<Record<string, string | undefined>> };
  /** Where a failing inhibitor is reported. @default nowhere */
  readonly keepAwakeLog?: (message: string) => void;
}

/** A host running in this process. */
export interface RunningHost {
  readonly bridge: Bridge;
  readonly adapter: HostAdapter;
  /** What this run's bridges remember across bridges; hand it to any further `createBridge`. */
  readonly memory: BridgeMemory;
  readonly controller: ChatController;
  /** The host's Web Push, unless started without it. */
  readonly push: HostPush | undefined;
  /** The MCP servers, when the config names any. */
  readonly mcp: McpServers | undefined;
  /** What keeps the machine awake during replies and approvals, unless started without it. */
  readonly keepAwake: KeepAwake | undefined;

  /** The ACP agents (possibly none), beside the built-in loop. */
  readonly agents: Agents;
  readonly address: ListeningAddress;
  /** `http(s)://<hostname>:<port>` with the real port. */
  readonly url: string;
  /**
   * What a phone opens to pair (QR codes, links): the public URL when there is one (a proxy or
   * a tailnet), else every address the listener can be reached at.
   */
  readonly pairUrls: readonly string[];
  /** Stops the bridge (streams and listener), every reply, and closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a complete host in this process: controller, adapter, bridge, listener. What the CLI
 * does, minus the console and signal handling, so tests can run a real host.
 *
 * @example
 * ```ts
 * const host = await startHost({ dataDir: mkdtempSync(join(tmpdir(), 'wb-')), accessCode: 'test-code-1', echoDelayMs: 1 });
 * await fetch(`${host.url}/api/state`, { headers: { Authorization: 'Bearer test-code-1' } });
 * await host.close();
 * ```
 */
export async function startHost(options: StartHostOptions): Promise<RunningHost> {
  const dataDir = path.resolve(options.dataDir);
  const entries = loadMcpConfig([
    { file: path.join(dataDir, 'mcp.json'), optional: true },
    ...(options.mcpConfig === undefined ? [] : [{ file: path.resolve(options.mcpConfig), optional: false }]),
  ]);
  const servers = new McpServers({
    entries,
    ...(options.mcpLog === undefined ? {} : { log: options.mcpLog }),
    ...(options.mcpTuning === undefined ? {} : { tuning: options.mcpTuning }),
  });
  const mcp = servers.configured ? servers : undefined;
  const agentOptions = options.agents ?? {};
  const configured = agentEntries({
    dataDir,
    ...(agentOptions.flags === undefined ? {} : { flags: agentOptions.flags }),
    ...(agentOptions.configFile === undefined ? {} : { configFile: path.resolve(agentOptions.configFile) }),
    ...(agentOptions.knownOnPath === undefined ? {} : { knownOnPath: agentOptions.knownOnPath }),
  });
  // The controller owns the authoriser; the agents read it through this view once they run.
  const owner: { controller?: ChatController } = {};
  const authoriser = {
    authorisePath: (uri: string) => owner.controller?.authoriser.authorisePath(uri),
    get roots() {
      return owner.controller?.authoriser.roots ?? [];
    },
  };
  const agents = new Agents({
    entries: [...configured, ...(agentOptions.entries ?? [])],
    authoriser,
    ...(agentOptions.log === undefined ? {} : { log: agentOptions.log }),
    ...(agentOptions.tuning === undefined ? {} : { tuning: agentOptions.tuning }),
  });
  const controller = openChatController({
    dataDir,
    agents,
    agentMcpServers: acpMcpServers(entries),
    ...(mcp === undefined ? {} : { toolSource: mcp }),
    ...(options.workspaceRoots === undefined ? {} : { workspaceRoots: options.workspaceRoots }),
    ...(options.echoDelayMs === undefined ? {} : { echoDelayMs: options.echoDelayMs }),
    ...(options.providers === undefined ? {} : { providers: options.providers }),
  });
  owner.controller = controller;
  const push = options.push === false ? undefined : new HostPush(controller, { dataDir, ...options.push });
  const adapter = { ...createHostAdapter(controller, push), locale: () => hostLocale(options.language) };
  const staticDir = options.staticDir === undefined ? webClientDir() : (options.staticDir ?? undefined);
  // One memory for every bridge of this run (tests build more: sharing off and on again).
  const memory = new BridgeMemory();
  const bridge = createBridge({
    host: adapter,
    memory,
    // Paired devices live in the host's SQLite file: a phone stays paired across restarts.
    devices: controller.devices,
    accessCode: options.accessCode,
    ...(options.viewCode === undefined ? {} : { viewCode: options.viewCode }),
    uploadDir: path.join(dataDir, 'uploads'),
    logLevel: options.logLevel ?? 'silent',
    ...(staticDir === undefined ? {} : { staticDir }),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    ...(options.mediaTtlMs === undefined ? {} : { mediaTtlMs: options.mediaTtlMs }),
    ...(options.uploadLimit === undefined ? {} : { uploadLimit: options.uploadLimit }),
    ...(options.publicUrl === undefined ? {} : { publicUrl: options.publicUrl }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    ...options.tuning,
  });
  // A forgotten device (console, a page, a rotated code) loses its push subscription and tokens.
  bridge.devices.onForget((device) => {
    controller
      .runCommitted(() => push?.forgetDevice(device.id))
      .catch(() => {
        // The host closed meanwhile: nothing is pushed after close.
      });
  });
  // Devices the bridge forgot as it was built (the host started with another code) lose theirs too.
  const paired = new Set(bridge.devices.list().map((device) => device.id));
  const orphaned = controller.pushSubscriptions.all().filter((row) => !paired.has(row.deviceId));
  if (orphaned.length > 0) {
    await controller.runCommitted(() => {
      for (const row of orphaned) push?.forgetDevice(row.deviceId);
    });
  }
  const hostname = options.hostname ?? '127.0.0.1';
  let address: ListeningAddress;
  try {
    const transport = { authorityDir: path.join(dataDir, 'tls'), ...options.transport };
    address = await bridge.listen({ port: options.port ?? 0, hostname, transport });
    // After the listener: a port already taken fails the start before any server is spawned.
    mcp?.start();
  } catch (error) {
    push?.close();
    controller.close();
    await agents.close();
    throw error;
  }
  const keepAwake = keepAwakeOf(options);
  // Held from the first word of a reply, or while an approval waits, until both are over.
  const stopWatching =
    keepAwake &&
    controller.subscribe(() => {
      const state = controller.readState();
      keepAwake.set(state.conversations.run.state !== 'idle' || state.approvals.length > 0);
    });
  let closing: Promise<void> | undefined;
  return {
    bridge,
    adapter,
    memory,
    controller,
    push,
    mcp,
    keepAwake,

    agents,
    address,
    pairUrls: options.publicUrl === undefined ? address.urls : [options.publicUrl],
    url: `${address.scheme}://${hostname.includes(':') ? `[${hostname}]` : hostname}:${address.port}`,
    close() {
      closing ??= (async () => {
        stopWatching?.();
        keepAwake?.close();
        try {
          await bridge.stop();
        } finally {
          push?.close();
          // The agents first: a turn they are in ends before the database closes.
          await agents.close();
          controller.close();
          await mcp?.close();
        }
      })();
      return closing;
    },
  };
}

/** The keep-awake a host was asked for, or undefined. */
function keepAwakeOf(options: StartHostOptions): KeepAwake | undefined {
  const wanted = options.keepAwake ?? false;
  if (wanted === false) return undefined;
  const env = wanted === true ? process.env : wanted.env;
  return new KeepAwake(inhibitorFor(process.platform, env, process.pid), options.keepAwakeLog);
}

/** The built web client of @webbridge/web, or undefined when it is not installed or not built. */
export function webClientDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@webbridge/web/package.json');
    const dist = path.join(path.dirname(manifest), 'dist');
    return fs.existsSync(path.join(dist, 'index.html')) ? dist : undefined;
  } catch {
    return undefined;
  }
}
