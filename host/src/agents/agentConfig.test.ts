import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpMcpServers } from './acpMcpServers';
import { parseAgentConfig, parseAgentFlag } from './agentConfig';
import { agentEntries } from './agentEntries';
import { knownAgentsOnPath } from './knownAgents';
import { splitCommandLine } from './splitCommandLine';

describe('splitCommandLine', () => {
  it('splits on spaces and keeps quoted words whole, expanding nothing', () => {
    expect(splitCommandLine(`node "/my dir/a.js" --x='a b' $HOME \\"q\\" "say \\"hi\\""`)).toEqual([
      'node',
      '/my dir/a.js',
      '--x=a b',
      '$HOME',
      '"q"',
      'say "hi"',
    ]);
    expect(splitCommandLine(`  a   ''  b `)).toEqual(['a', '', 'b']);
    expect(() => splitCommandLine(`a 'b`)).toThrow(/unclosed/);
  });
});

describe('agent config', () => {
  it('parses a flag into a command entry', () => {
    expect(parseAgentFlag('gemini=gemini --experimental-acp')).toEqual({
      name: 'gemini',
      command: 'gemini',
      args: ['--experimental-acp'],
      env: {},
      cwd: undefined,
      signIn: undefined,
    });
  });

  it('reads a config file; a bad entry is invalid without its env values in the reason', () => {
    const entries = parseAgentConfig(
      JSON.stringify({
        agents: {
          oc: { command: 'opencode', args: ['acp'], env: { KEY: 'sk-secret-value' }, cwd: 'proj' },
          off: { command: 'x', disabled: true },
          bad: { command: 'x', env: { KEY: 42 } },
          builtin: { command: 'x' },
        },
      }),
      '/etc/webbridge/agents.json',
    );
    expect(entries[0]).toEqual({
      name: 'oc',
      command: 'opencode',
      args: ['acp'],
      env: { KEY: 'sk-secret-value' },
      cwd: '/etc/webbridge/proj',
      signIn: undefined,
    });
    expect(entries.map((e) => e.name)).toEqual(['oc', 'bad', 'builtin']);
    expect(entries[1]).toEqual({ name: 'bad', invalid: 'Invalid config: "env.KEY" must be a string.' });
    expect(JSON.stringify(entries.slice(1))).not.toContain('sk-secret');
    expect(() => parseAgentConfig('{', 'f.json')).toThrow(/not valid JSON/);
    expect(() => parseAgentConfig('{"agents":[]}', 'f.json')).toThrow(/object of agents/);
  });

  it('merges known agents on PATH < data-dir file < --agents-config < flags', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-config-'));
    try {
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      fs.writeFileSync(path.join(bin, 'opencode'), '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(bin, 'codex-acp'), 'not executable', { mode: 0o644 });
      expect(knownAgentsOnPath(bin).map((e) => e.name)).toEqual(['opencode']);
      fs.writeFileSync(
        path.join(dir, 'agents.json'),
        JSON.stringify({ agents: { opencode: { command: 'oc2' }, a: { command: 'a1' } } }),
      );
      const extra = path.join(dir, 'extra.json');
      fs.writeFileSync(extra, JSON.stringify({ agents: { a: { command: 'a2' } } }));
      const entries = agentEntries({
        dataDir: dir,
        configFile: extra,
        flags: ['b=b1 --x'],
        knownOnPath: bin,
      });
      expect(entries.map((e) => ['command' in e ? e.command : '', e.name])).toEqual([
        ['oc2', 'opencode'],
        ['a2', 'a'],
        ['b1', 'b'],
      ]);
      expect(agentEntries({ dataDir: dir }).map((e) => e.name)).toEqual(['opencode', 'a']);
      // A known program under another name or path still says how to sign in.
      expect(agentEntries({ dataDir: dir, flags: ['oc=/opt/bin/opencode acp'] }).at(-1)).toMatchObject({
        name: 'oc',
        signIn: 'opencode auth login',
      });
      expect(() => agentEntries({ dataDir: dir, configFile: path.join(dir, 'missing.json') })).toThrow(
        /Cannot read/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('acpMcpServers', () => {
  it("passes the host's MCP servers as ACP stdio and http servers, leaving invalid ones out", () => {
    expect(
      acpMcpServers([
        {
          name: 'files',
          transport: 'stdio',
          command: '/usr/bin/env',
          args: ['x'],
          env: { TOKEN: 't' },
          cwd: undefined,
          approval: 'ask',
          timeoutMs: 1,
        },
        {
          name: 'remote',
          transport: 'http',
          url: new URL('https://mcp.example/mcp'),
          headers: { Authorization: 'Bearer b' },
          approval: 'ask',
          timeoutMs: 1,
        },
        { name: 'bad', transport: 'stdio', invalid: 'no command' },
      ]),
    ).toEqual([
      { name: 'files', command: '/usr/bin/env', args: ['x'], env: [{ name: 'TOKEN', value: 't' }] },
      {
        type: 'http',
        name: 'remote',
        url: 'https://mcp.example/mcp',
        headers: [{ name: 'Authorization', value: 'Bearer b' }],
      },
    ]);
  });
});
