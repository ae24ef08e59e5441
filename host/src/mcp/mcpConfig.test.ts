import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/testController';
import { DEFAULT_MCP_TIMEOUT_MS, loadMcpConfig, parseMcpConfig } from './mcpConfig';

const parse = (mcpServers: unknown) => parseMcpConfig(JSON.stringify({ mcpServers }), '/etc/wb/mcp.json');

describe('parseMcpConfig', () => {
  it('reads stdio and Streamable HTTP servers in the usual shape, with the defaults', () => {
    expect(
      parse({
        fs: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { A: 'b' } },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
      }),
    ).toEqual([
      {
        name: 'fs',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'server-filesystem', '/tmp'],
        env: { A: 'b' },
        cwd: undefined,
        approval: 'ask',
        timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
      },
      {
        name: 'remote',
        transport: 'http',
        url: new URL('https://mcp.example.com/mcp'),
        headers: { Authorization: 'Bearer t' },
        approval: 'ask',
        timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
      },
    ]);
  });

  it('reads approval, timeoutMs, type and a cwd relative to the file, and skips disabled servers', () => {
    const [entry, ...rest] = parse({
      a: { type: 'stdio', command: 'x', approval: 'allow', timeoutMs: 5000, cwd: 'servers/a' },
      b: { command: 'y', disabled: true },
    });
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      approval: 'allow',
      timeoutMs: 5000,
      cwd: path.resolve('/etc/wb/servers/a'),
    });
    expect(parse({ h: { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp' } })[0]).toMatchObject({
      transport: 'http',
    });
  });

  it('turns a bad entry into an invalid one that names keys, never values', () => {
    const entries = parse({
      'bad name': { command: 'x' },
      noCommand: { args: [] },
      sse: { type: 'sse', url: 'http://127.0.0.1/sse' },
      policy: { command: 'x', approval: 'always' },
      slow: { command: 'x', timeoutMs: 0 },
      envs: { command: 'x', env: { TOKEN: 12345678 } },
      heads: { url: 'http://127.0.0.1/mcp', headers: { Authorization: ['Bearer s3cr3t-value'] } },
      ftp: { url: 'ftp://127.0.0.1/' },
    });
    expect(entries.map((entry) => ('invalid' in entry ? entry.invalid : 'valid'))).toEqual([
      'Invalid config: the name may use letters, digits, "-" and "_" only (at most 32).',
      'Invalid config: give a "command" (stdio) or a "url" (Streamable HTTP).',
      'Invalid config: the SSE transport is not supported; use Streamable HTTP.',
      'Invalid config: "approval" must be "ask" or "allow".',
      'Invalid config: "timeoutMs" must be a whole number of milliseconds from 1 to 3600000.',
      'Invalid config: "env.TOKEN" must be a string.',
      'Invalid config: "headers.Authorization" must be a string.',
      'Invalid config: "url" must be http or https.',
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/12345678|s3cr3t/);
  });

  it('refuses a file that is not JSON or not an object of servers', () => {
    expect(() => parseMcpConfig('{ nope', 'f.json')).toThrow('f.json is not valid JSON.');
    expect(() => parseMcpConfig('[]', 'f.json')).toThrow(/must hold a JSON object/);
    expect(() => parseMcpConfig('{"mcpServers": []}', 'f.json')).toThrow(/"mcpServers" must be an object/);
    expect(parseMcpConfig('{}', 'f.json')).toEqual([]);
  });
});

describe('loadMcpConfig', () => {
  it('reads the files that exist in order; a later entry replaces one of the same name', () => {
    const dir = tempDir();
    const first = path.join(dir, 'mcp.json');
    const second = path.join(dir, 'extra.json');
    fs.writeFileSync(first, JSON.stringify({ mcpServers: { a: { command: 'one' }, b: { command: 'b' } } }));
    fs.writeFileSync(second, JSON.stringify({ mcpServers: { a: { command: 'two' } } }));
    const entries = loadMcpConfig([
      { file: path.join(dir, 'missing.json'), optional: true },
      { file: first, optional: true },
      { file: second, optional: false },
    ]);
    expect(entries.map((e) => [e.name, 'command' in e ? e.command : undefined])).toEqual([
      ['a', 'two'],
      ['b', 'b'],
    ]);
  });

  it('fails on a named file that cannot be read', () => {
    expect(() => loadMcpConfig([{ file: '/nonexistent/mcp.json', optional: false }])).toThrow(
      'Cannot read the MCP config /nonexistent/mcp.json: ENOENT.',
    );
  });
});
