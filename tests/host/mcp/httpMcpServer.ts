import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A tiny Streamable HTTP MCP server on 127.0.0.1, built with the SDK's server classes. */
export interface HttpMcpServer {
  readonly url: string;
  readonly port: number;
  /** The Authorization header of every request it got. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * Starts the server (stateless: a server and transport per request). It refuses requests
 * without `Authorization: Bearer <token>` (401), so a test sees the config's headers are sent.
 * Tools: `shout {text}` (upper-cases), `note` (a text resource and a resource link).
 */
export async function startHttpMcpServer(token: string, port = 0): Promise<HttpMcpServer> {
  const authorizations: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const mcp = mcpServer();
    // No session id generator: stateless, a transport per request.
    const transport = new StreamableHTTPServerTransport({});
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function mcpServer(): McpServer {
  const mcp = new McpServer({ name: 'tiny-http', version: '1.0.0' });
  mcp.registerTool(
    'shout',
    { description: 'Upper-cases a text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  mcp.registerTool('note', { description: 'Returns a note as a resource' }, async () => ({
    content: [
      { type: 'resource', resource: { uri: 'note://one', mimeType: 'text/plain', text: 'a note' } },
      { type: 'resource_link', uri: 'note://two', name: 'second note' },
    ],
  }));
  return mcp;
}
