import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { needsApproval } from './approvalPolicy';
import { backoffDelay } from './backoffDelay';
import { McpConnection } from './McpConnection';
import { DEFAULT_MCP_TUNING } from './McpTuning';
import { type McpApproval, parseMcpConfig } from './mcpConfig';
import { MAX_SCHEMA_BYTES, mcpTool, mcpToolName } from './mcpTool';

function connection(approval: McpApproval = 'ask'): McpConnection {
  const [config] = parseMcpConfig(
    JSON.stringify({ mcpServers: { srv: { command: 'x', approval } } }),
    'm.json',
  );
  if (!config || 'invalid' in config) throw new Error('bad test config');
  return new McpConnection(
    config,
    DEFAULT_MCP_TUNING,
    () => {},
    () => {},
  );
}

const tool = (extra: Partial<McpTool> = {}): McpTool => ({
  name: 'write_file',
  description: 'Writes a file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  ...extra,
});

describe('mcpTool', () => {
  it('names a tool by its server, in the characters models accept', () => {
    expect(mcpToolName('srv', 'get.thing/now')).toBe('srv__get_thing_now');
    expect(mcpToolName('srv', 'x'.repeat(100))).toHaveLength(64);
  });

  it('offers the description and the input schema without $schema', () => {
    const adapted = mcpTool(
      connection(),
      tool({
        inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', required: ['p'] },
      }),
    );
    expect(adapted).toMatchObject({
      name: 'srv__write_file',
      description: 'Writes a file',
      server: 'srv',
      needsApproval: true,
      parameters: { type: 'object', required: ['p'] },
    });
    expect(adapted?.parameters).not.toHaveProperty('$schema');
    expect(adapted?.summarize({ path: 'a.txt' })).toBe('srv: write_file {"path":"a.txt"}');
  });

  it('leaves out a tool whose schema is too large', () => {
    const huge = { type: 'object' as const, description: 'x'.repeat(MAX_SCHEMA_BYTES) };
    expect(mcpTool(connection(), tool({ inputSchema: huge }))).toBeUndefined();
  });

  it('asks under "ask"; under "allow" only for a tool marked destructive (and not read-only)', () => {
    const destructive = tool({ annotations: { destructiveHint: true } });
    expect(needsApproval('ask', tool())).toBe(true);
    expect(needsApproval('allow', tool())).toBe(false);
    expect(needsApproval('allow', destructive)).toBe(true);
    expect(needsApproval('allow', tool({ annotations: { destructiveHint: true, readOnlyHint: true } }))).toBe(
      false,
    );
    expect(mcpTool(connection('allow'), destructive)?.summarize({})).toBe(
      'srv: write_file {} (marked destructive)',
    );
  });

  it('fails a call at once, readably, while its server is not ready', async () => {
    const adapted = mcpTool(connection(), tool());
    const context = { workspace: '/', settings: {} as never, signal: new AbortController().signal };
    await expect(adapted?.run({}, context)).rejects.toThrow('The MCP server "srv" is not ready (starting).');
  });
});

describe('backoffDelay', () => {
  it('doubles from the first pause up to the longest', () => {
    expect([0, 1, 2, 3, 40].map((n) => backoffDelay(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
});
