import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAccessCode } from './generateAccessCode';
import { parseServeArgs } from './parseServeArgs';

describe('parseServeArgs', () => {
  it('has the documented defaults', () => {
    expect(parseServeArgs([])).toEqual({
      port: 7878,
      hostname: '127.0.0.1',
      accessCode: undefined,
      viewCode: undefined,
      tls: false,
      insecureHttp: false,
      tlsCert: undefined,
      tlsKey: undefined,
      dataDir: path.join(os.homedir(), '.webbridge'),
      heartbeatMs: undefined,
      mediaTtlMs: undefined,
      echoDelayMs: 30,
      uploadLimit: undefined,
      workspaceRoots: [],
      logLevel: undefined,
      console: true,
      help: false,
      openai: undefined,
      pushReplyTitles: false,

      agents: [],
      knownAgents: true,
    });
  });

  it('takes repeatable --agent NAME=COMMAND, --agents-config and --no-known-agents', () => {
    const config = parseServeArgs([
      '--agent',
      'opencode=opencode acp',
      '--agent',
      `fake=node "/my dir/agent.js"`,
      '--agents-config',
      'agents.json',
      '--no-known-agents',
    ]);
    expect(config.agents).toEqual(['opencode=opencode acp', 'fake=node "/my dir/agent.js"']);
    expect(config.agentsConfig).toBe(path.resolve('agents.json'));
    expect(config.knownAgents).toBe(false);
    expect(() => parseServeArgs(['--agent', 'opencode'])).toThrow(/NAME=COMMAND/);
    expect(() => parseServeArgs(['--agent', 'builtin=x'])).toThrow(/host's own agent/);
    expect(() => parseServeArgs(['--agent', 'bad name=x'])).toThrow(/letters, digits/);
    expect(() => parseServeArgs(['--agent', 'x='])).toThrow(/empty/);
    expect(() => parseServeArgs(['--agent', `x=node "open`])).toThrow(/unclosed/);
  });

  it('reads every flag, with repeatable workspace roots', () => {
    const config = parseServeArgs([
      '--port=0',
      '--host',
      '0.0.0.0',
      '--access-code',
      'abcd-efgh',
      '--data-dir',
      'rel/data',
      '--heartbeat-ms',
      '500',
      '--media-ttl-ms',
      '1000',
      '--echo-delay-ms',
      '0',
      '--upload-limit',
      '2048',
      '--workspace-root',
      '/a',
      '--workspace-root',
      '/b',
      '--log-level',
      'silent',
      '--no-console',
      '--push-reply-titles',
    ]);
    expect(config).toMatchObject({
      port: 0,
      hostname: '0.0.0.0',
      accessCode: { code: 'abcd-efgh', source: 'flag' },
      dataDir: path.resolve('rel/data'),
      heartbeatMs: 500,
      mediaTtlMs: 1000,
      echoDelayMs: 0,
      uploadLimit: 2048,
      workspaceRoots: ['/a', '/b'],
      logLevel: 'silent',
      console: false,
      pushReplyTitles: true,
    });
  });

  it('refuses bad values and unknown flags', () => {
    expect(() => parseServeArgs(['--port', 'http'])).toThrow(/--port/);
    expect(() => parseServeArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseServeArgs(['--heartbeat-ms', '0'])).toThrow(/--heartbeat-ms/);
    expect(() => parseServeArgs(['--log-level', 'loud'])).toThrow(/--log-level/);
    expect(() => parseServeArgs(['--bogus'])).toThrow();
  });

  it('reads the OpenAI-compatible endpoint, its key from the environment and the models', () => {
    const env = { OPENAI_API_KEY: 'sk-default', MY_KEY: 'sk-mine' };
    expect(
      parseServeArgs(
        ['--openai-base-url', 'http://127.0.0.1:11434/v1/', '--model', 'a,b', '--model', 'c'],
        env,
      ).openai,
    ).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-default',
      models: ['a', 'b', 'c'],
      timeoutMs: undefined,
    });
    expect(
      parseServeArgs(
        [
          '--openai-base-url',
          'https://api.openai.com/v1',
          '--openai-api-key-env',
          'MY_KEY',
          '--openai-timeout-ms',
          '5000',
        ],
        env,
      ).openai,
    ).toEqual({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-mine', models: [], timeoutMs: 5000 });
    expect(
      parseServeArgs(['--openai-base-url', 'http://localhost:8080/v1'], {}).openai?.apiKey,
    ).toBeUndefined();
  });

  it('refuses OpenAI flags that cannot work, without echoing a key', () => {
    expect(() => parseServeArgs(['--model', 'x'], {})).toThrow(/--openai-base-url/);
    expect(() => parseServeArgs(['--openai-base-url', 'ftp://x/v1'], {})).toThrow(/http/);
    expect(() => parseServeArgs(['--openai-base-url', 'not a url'], {})).toThrow(/URL/);
    expect(() => parseServeArgs(['--openai-base-url', 'http://u:sk-secret@h/v1'], {})).toThrow(/credentials/);
    expect(() =>
      parseServeArgs(['--openai-base-url', 'http://h/v1', '--openai-api-key-env', 'MISSING'], {}),
    ).toThrow(/MISSING/);
    let message = '';
    try {
      parseServeArgs(['--openai-base-url', 'http://h/v1', '--openai-api-key-env', 'sk-pasted-key'], {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/name of an environment variable/);
    expect(message).not.toContain('sk-pasted-key');
  });
});

describe('generateAccessCode', () => {
  it('makes typable codes of ≥ 40 bits that differ every time', () => {
    const codes = new Set(Array.from({ length: 200 }, generateAccessCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    // 31 symbols over 10 positions.
    expect(10 * Math.log2(31)).toBeGreaterThanOrEqual(40);
  });
});
