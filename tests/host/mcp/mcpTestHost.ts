import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Snapshot } from '@webbridge/contract';
import { type StartHostOptions, startHost } from '@webbridge/host';
import { getState, waitFor } from '../../support/api';
import type { TestHost } from '../../support/testHost';

const CODE = 'mcp-test-code-4k9q';
const require = createRequire(import.meta.url);

/** The entry script of an installed MCP server package (started with `node <it>`, never npx). */
function serverBin(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.js');
}

/** @modelcontextprotocol/server-everything's script. */
export const EVERYTHING = serverBin('@modelcontextprotocol/server-everything');
/** @modelcontextprotocol/server-filesystem's script. */
export const FILESYSTEM = serverBin('@modelcontextprotocol/server-filesystem');

type ServerView = NonNullable<Snapshot['tools']['servers']>[number];

/** A real host whose `<dataDir>/mcp.json` names these servers, and the MCP log lines it wrote. */
export interface McpTestHost extends TestHost {
  readonly logs: string[];
  /**
   * Every status a server has shown, in order (recorded synchronously on each projection, so
   * a state that lasts a few milliseconds is not missed as it could be by polling).
   */
  readonly history: ServerView[];
}

/** Starts a real host (SQLite, echo model, bridge on 127.0.0.1:0) with an MCP config in its data dir. */
export async function startMcpHost(
  mcpServers: Record<string, unknown>,
  options: Partial<StartHostOptions> = {},
): Promise<McpTestHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-mcp-'));
  writeFileSync(join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers }));
  const logs: string[] = [];
  const host = await startHost({
    dataDir,
    accessCode: CODE,
    echoDelayMs: 1,
    staticDir: null,
    mcpLog: (level, message) => logs.push(`${level}: ${message}`),
    mcpTuning: { backoffInitialMs: 100, backoffMaxMs: 400, pingTimeoutMs: 1_000, startTimeoutMs: 10_000 },
    ...options,
  });
  const history: ServerView[] = [];
  const last = new Map<string, ServerView>();
  const record = () => {
    for (const server of host.controller.readState().tools.servers ?? []) {
      // Unchanged parts keep their identity from one projection to the next.
      if (last.get(server.name) === server) continue;
      last.set(server.name, server);
      history.push(server);
    }
  };
  await host.controller.executor.run(() => {
    record();
    host.controller.subscribe(record);
  });
  const port = host.address.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    host,
    logs,
    history,
    auth: (extra = {}) => ({ Authorization: `Bearer ${CODE}`, 'Content-Type': 'application/json', ...extra }),
    close: () => host.close(),
  };
}

/**
 * Waits until a status of the server recorded at or after `since` (an index of
 * `h.history`) is in `state` and passes `also`; returns it.
 */
export function waitForStatus(
  h: McpTestHost,
  since: number,
  name: string,
  state: ServerView['state'],
  also: (server: ServerView) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<ServerView> {
  return waitFor(
    () => h.history.slice(since).find((s) => s.name === name && s.state === state && also(s)),
    timeoutMs,
  );
}

/** Waits until the snapshot shows the server in `state` (and passes `also`); returns its status. */
export function waitForServer(
  h: TestHost,
  name: string,
  state: ServerView['state'],
  also: (server: ServerView, snapshot: Snapshot) => boolean = () => true,
  timeoutMs = 10_000,
): Promise<ServerView & { readonly snapshot: Snapshot }> {
  return waitFor(async () => {
    const snapshot = await getState(h);
    const server = snapshot.tools.servers?.find((s) => s.name === name);
    return server?.state === state && also(server, snapshot) ? { ...server, snapshot } : undefined;
  }, timeoutMs);
}
