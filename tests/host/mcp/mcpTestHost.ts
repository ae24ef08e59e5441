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
export function serverBin(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.js');
}

/** @modelcontextprotocol/server-everything's script. */
export const EVERYTHING = serverBin('@modelcontextprotocol/server-everything');
/** @modelcontextprotocol/server-filesystem's script. */
export const FILESYSTEM = serverBin('@modelcontextprotocol/server-filesystem');

/** A real host whose `<dataDir>/mcp.json` names these servers, and the MCP log lines it wrote. */
export interface McpTestHost extends TestHost {
  readonly logs: string[];
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
  const port = host.address.port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    host,
    logs,
    auth: (extra = {}) => ({ Authorization: `Bearer ${CODE}`, 'Content-Type': 'application/json', ...extra }),
    close: () => host.close(),
  };
}

type ServerView = NonNullable<Snapshot['tools']['servers']>[number];

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
