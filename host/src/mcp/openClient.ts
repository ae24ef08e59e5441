import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { childLaunch } from './childEnv';
import type { McpServerConfig } from './mcpConfig';

/** Most bytes of one message a stdio server may send (the SDK's default is 10 MiB). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Most bytes of a server's stderr kept, to explain why it stopped. */
const STDERR_TAIL_BYTES = 2048;

/** A client and the transport it speaks over, not yet connected. */
export interface OpenedClient {
  readonly client: Client;
  readonly transport: StdioClientTransport | StreamableHTTPClientTransport;
  /** The last lines the child wrote to stderr (stdio only; unscrubbed). */
  stderrTail(): string;
}

/** The name and version the host introduces itself with. */
const CLIENT_INFO = { name: 'webbridge', version: '0.1.0' };

/**
 * Makes an MCP client for one server with the official SDK: a child process over stdio
 * (its stderr kept, not printed over the console) or Streamable HTTP. The client declares no
 * capabilities: the host answers no sampling, roots or elicitation requests.
 */
export function openClient(config: McpServerConfig): OpenedClient {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  if (config.transport === 'http') {
    const transport = new StreamableHTTPClientTransport(config.url, {
      requestInit: { headers: { ...config.headers } },
      // A dropped event stream is retried a little, then the connection counts as lost.
      reconnectionOptions: {
        initialReconnectionDelay: 500,
        maxReconnectionDelay: 5_000,
        reconnectionDelayGrowFactor: 2,
        maxRetries: 2,
      },
    });
    return { client, transport, stderrTail: () => '' };
  }
  const launch = childLaunch(config.command, config.env);
  const transport = new StdioClientTransport({
    command: launch.command,
    args: [...config.args],
    env: launch.env,
    stderr: 'pipe',
    maxBufferSize: MAX_MESSAGE_BYTES,
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
  });
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  return { client, transport, stderrTail: () => tail };
}
