import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BridgeOptions } from '@webbridge/server';
import { type HostLanguage, matchHostLanguage } from '../adapter/connectionStrings';
import { parseAgentFlag } from '../agents/agentConfig';
import type { OpenAiConfig } from '../models/createModelProviders';
import { type ChosenCode, checkCode, readCodeFile } from './accessCodes';

/** The `webbridge serve` configuration. */
export interface ServeConfig {
  readonly port: number;
  readonly hostname: string;
  /** The code given by flag, file or environment; undefined: the kept one, else a fresh one. */
  readonly accessCode: ChosenCode | undefined;
  /** The view code given by flag, file or environment; undefined: the kept one, if any. */
  readonly viewCode: ChosenCode | undefined;
  /** `--tls`: HTTPS on loopback too. */
  readonly tls: boolean;
  /** `--insecure-http`: plain HTTP off loopback. */
  readonly insecureHttp: boolean;
  /** `--tls-cert` / `--tls-key`: a person's own certificate instead of the local authority. */
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  readonly dataDir: string;
  readonly heartbeatMs: number | undefined;
  readonly mediaTtlMs: number | undefined;
  readonly echoDelayMs: number;
  readonly uploadLimit: number | undefined;
  readonly workspaceRoots: readonly string[];
  /** Undefined when not given: the CLI picks `warn` with an interactive console, else `info`. */
  readonly logLevel: NonNullable<BridgeOptions['logLevel']> | undefined;
  readonly console: boolean;
  readonly help: boolean;
  /** The OpenAI-compatible endpoint, when `--openai-base-url` is given. Holds the key: never log it. */
  readonly openai: OpenAiConfig | undefined;
  /** `--mcp-config`: an MCP config read after `<dataDir>/mcp.json` (absolute path). */
  readonly mcpConfig: string | undefined;
  /** `--agent NAME=COMMAND` values (checked here, parsed again by startHost). */
  readonly agents: readonly string[];
  /** `--agents-config`: an agents file read after `<dataDir>/agents.json` (absolute path). */
  readonly agentsConfig: string | undefined;
  /** Offer the well-known agents found on PATH (off with `--no-known-agents`). */
  readonly knownAgents: boolean;
  /**
   * `--language`, matched to a host language (unknown → `en`); undefined when not given: the
   * CLI then reads the environment's locale (LC_ALL, LC_MESSAGES, LANG).
   */
  readonly language: HostLanguage | undefined;
  /** `--push-reply-titles`: a reply's push carries its conversation's title. */
  readonly pushReplyTitles: boolean;
}

/** The text of `webbridge serve --help`. */
export const SERVE_HELP = `Usage: webbridge serve [options]

Starts the reference host and the bridge, and prints the URL, the access code and a QR code.

Options:
  --port <n>              port to listen on; 0 picks a free one (default 7878)
  --host <address>        address to listen on; 0.0.0.0 for the LAN (default 127.0.0.1)
  --access-code-file <f>  read the access code from a file (first line)
  --access-code <code>    access code; other local users can read it in \`ps\`: prefer the
                          file or WEBBRIDGE_ACCESS_CODE (default: the code kept in the data
                          dir, else a fresh one that is kept there until rotated)
  --view-code-file <f>    read a view code (watch only, no control) from a file
  --view-code <code>      a view code (or WEBBRIDGE_VIEW_CODE; default: the kept one, if any)
  --tls                   HTTPS on loopback too (off loopback it is the default)
  --tls-cert <file>       serve your own certificate (PEM, chain after the leaf) ...
  --tls-key <file>        ... with this key, instead of the local certificate authority
  --insecure-http         plain HTTP off loopback: the code and every message cross the
                          network in clear (not recommended)
  --data-dir <dir>        where the database, uploads and default workspace live (default ~/.webbridge)
  --workspace-root <dir>  another folder projects may use; repeatable
  --heartbeat-ms <ms>     idle time before an event-stream heartbeat (default 15000)
  --media-ttl-ms <ms>     lifetime of a media id (default 300000)
  --upload-limit <bytes>  largest upload (default 26214400)
  --echo-delay-ms <ms>    pause between words of the echo model (default 30)
  --log-level <level>     fatal, error, warn, info, debug or silent (default info;
                          warn while the interactive console runs)
  --no-console            no interactive console, even on a terminal
  --language <tag>        the web page's language: en, de, fr, es, pt-BR, zh-CN, ja or ar
                          (default: the locale in LC_ALL, LC_MESSAGES or LANG; else en)
  --push-reply-titles     a reply's push notification shows its conversation's title (the
                          first line of its first message; off: "Reply finished" alone)
  --mcp-config <file>     MCP servers to use as tools, besides <data-dir>/mcp.json
                          ({ "mcpServers": { "<name>": { "command", "args", "env" } or
                          { "url", "headers" } } }; see docs/HOST.md)
  --agent <NAME=COMMAND>  an ACP agent conversations can use, e.g. opencode="opencode acp";
                          repeatable (its process starts on first use; see docs/HOST.md)
  --agents-config <file>  agents besides <data-dir>/agents.json
                          ({ "agents": { "<name>": { "command", "args", "env" } } })
  --no-known-agents       do not offer opencode, claude-agent-acp, codex-acp or gemini
                          when they are on PATH

Models (the offline "echo" model is always there):
  --openai-base-url <url>     an OpenAI-compatible API root, e.g. https://api.openai.com/v1
                              or http://127.0.0.1:11434/v1 (Ollama)
  --openai-api-key-env <NAME> environment variable holding the API key (default OPENAI_API_KEY;
                              no key is sent when it is unset)
  --model <id>                a model to offer; repeatable or comma-separated
                              (default: every model GET <url>/models lists)
  --openai-timeout-ms <ms>    give up on a request silent for this long (default 120000)
  --help                  show this help
`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;

/**
 * Parses the flags of `webbridge serve`. Throws an Error with a readable message on a bad
 * value, so the CLI can print it with the usage.
 */
export function parseServeArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): ServeConfig {
  const { values } = parseArgs({
    // `pnpm start -- --port 0` passes the `--` through; it means nothing here.
    args: args[0] === '--' ? args.slice(1) : [...args],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'access-code': { type: 'string' },
      'access-code-file': { type: 'string' },
      'view-code': { type: 'string' },
      'view-code-file': { type: 'string' },
      tls: { type: 'boolean' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'insecure-http': { type: 'boolean' },
      'data-dir': { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      'media-ttl-ms': { type: 'string' },
      'echo-delay-ms': { type: 'string' },
      'upload-limit': { type: 'string' },
      'workspace-root': { type: 'string', multiple: true },
      'log-level': { type: 'string' },
      'no-console': { type: 'boolean' },
      'mcp-config': { type: 'string' },
      'push-reply-titles': { type: 'boolean' },

      agent: { type: 'string', multiple: true },
      'agents-config': { type: 'string' },
      'no-known-agents': { type: 'boolean' },
      language: { type: 'string' },
      'openai-base-url': { type: 'string' },
      'openai-api-key-env': { type: 'string' },
      'openai-timeout-ms': { type: 'string' },
      model: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const logLevel = values['log-level'];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  }
  const accessCode = givenCode(
    values['access-code'],
    values['access-code-file'],
    env.WEBBRIDGE_ACCESS_CODE,
    'access',
  );
  const viewCode = givenCode(values['view-code'], values['view-code-file'], env.WEBBRIDGE_VIEW_CODE, 'view');
  if (accessCode && viewCode && accessCode.code === viewCode.code) {
    throw new Error('The view code must differ from the access code.');
  }
  const tlsCert = values['tls-cert'];
  const tlsKey = values['tls-key'];
  if ((tlsCert === undefined) !== (tlsKey === undefined))
    throw new Error('--tls-cert and --tls-key go together.');
  if (values['insecure-http'] && (values.tls || tlsCert !== undefined)) {
    throw new Error('--insecure-http cannot be combined with --tls or --tls-cert.');
  }
  const language = values.language;
  if (language !== undefined && !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(language)) {
    throw new Error('--language takes a language tag such as de or pt-BR.');
  }
  const agents = values.agent ?? [];
  // A bad value is a startup error with the usage, like a bad port; startHost parses them again.
  for (const value of agents) parseAgentFlag(value);
  const port = integer(values.port, '--port') ?? 7878;
  if (port > 65_535) throw new Error('--port must be at most 65535.');
  return {
    port,
    hostname: values.host ?? '127.0.0.1',
    accessCode,
    viewCode,
    tls: values.tls === true,
    insecureHttp: values['insecure-http'] === true,
    tlsCert: tlsCert === undefined ? undefined : path.resolve(tlsCert),
    tlsKey: tlsKey === undefined ? undefined : path.resolve(tlsKey),
    dataDir: path.resolve(values['data-dir'] ?? path.join(os.homedir(), '.webbridge')),
    heartbeatMs: positive(values['heartbeat-ms'], '--heartbeat-ms'),
    mediaTtlMs: positive(values['media-ttl-ms'], '--media-ttl-ms'),
    echoDelayMs: integer(values['echo-delay-ms'], '--echo-delay-ms') ?? 30,
    uploadLimit: positive(values['upload-limit'], '--upload-limit'),
    workspaceRoots: (values['workspace-root'] ?? []).map((root) => path.resolve(root)),
    logLevel,
    console: values['no-console'] !== true,
    help: values.help === true,
    openai: openAiConfig(values, env),
    mcpConfig: values['mcp-config'] === undefined ? undefined : path.resolve(values['mcp-config']),
    agents,
    agentsConfig: values['agents-config'] === undefined ? undefined : path.resolve(values['agents-config']),
    knownAgents: values['no-known-agents'] !== true,
    language: language === undefined ? undefined : matchHostLanguage(language),
    pushReplyTitles: values['push-reply-titles'] === true,
  };
}

function openAiConfig(
  values: {
    'openai-base-url'?: string | undefined;
    'openai-api-key-env'?: string | undefined;
    'openai-timeout-ms'?: string | undefined;
    model?: string[] | undefined;
  },
  env: Readonly<Record<string, string | undefined>>,
): OpenAiConfig | undefined {
  const baseUrl = values['openai-base-url'];
  const models = (values.model ?? [])
    .flatMap((m) => m.split(','))
    .map((m) => m.trim())
    .filter(Boolean);
  if (baseUrl === undefined) {
    if (models.length > 0) throw new Error('--model needs --openai-base-url.');
    if (values['openai-api-key-env'] !== undefined)
      throw new Error('--openai-api-key-env needs --openai-base-url.');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error('--openai-base-url must be a URL such as http://127.0.0.1:11434/v1.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('--openai-base-url must be http or https.');
  if (url.username !== '' || url.password !== '') {
    throw new Error(
      '--openai-base-url must not contain credentials; put the key in an environment variable.',
    );
  }
  const keyName = values['openai-api-key-env'];
  if (keyName !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyName)) {
    throw new Error('--openai-api-key-env takes the name of an environment variable, not the key.');
  }
  const apiKey = env[keyName ?? 'OPENAI_API_KEY'];
  // A name given on purpose must exist; the default may be unset (local servers need no key).
  if (keyName !== undefined && (apiKey === undefined || apiKey === '')) {
    throw new Error(`The environment variable ${keyName} (--openai-api-key-env) is not set.`);
  }
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    apiKey: apiKey === '' ? undefined : apiKey,
    models: [...new Set(models)],
    timeoutMs: positive(values['openai-timeout-ms'], '--openai-timeout-ms'),
  };
}

/** A code given on the command line, in a file or in the environment (that order wins). */
function givenCode(
  flag: string | undefined,
  file: string | undefined,
  fromEnv: string | undefined,
  kind: 'access' | 'view',
): ChosenCode | undefined {
  if (flag !== undefined && file !== undefined)
    throw new Error(`Give --${kind}-code or --${kind}-code-file, not both.`);
  if (flag !== undefined) {
    checkCode(flag, `--${kind}-code`);
    return { code: flag, source: 'flag' };
  }
  if (file !== undefined)
    return { code: readCodeFile(path.resolve(file), `--${kind}-code-file`), source: 'file' };
  if (fromEnv !== undefined && fromEnv !== '') {
    const name = kind === 'access' ? 'WEBBRIDGE_ACCESS_CODE' : 'WEBBRIDGE_VIEW_CODE';
    checkCode(fromEnv.trim(), name);
    return { code: fromEnv.trim(), source: 'env' };
  }
  return undefined;
}

function isLogLevel(value: string): value is NonNullable<ServeConfig['logLevel']> {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

function integer(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a non-negative integer.`);
  return Number(value);
}

function positive(value: string | undefined, flag: string): number | undefined {
  const n = integer(value, flag);
  if (n === 0) throw new Error(`${flag} must be greater than 0.`);
  return n;
}
