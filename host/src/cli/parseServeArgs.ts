import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BridgeOptions } from '@webbridge/server';

/** The `webbridge serve` configuration. */
export interface ServeConfig {
  readonly port: number;
  readonly hostname: string;
  /** Undefined: generate a fresh one. */
  readonly accessCode: string | undefined;
  readonly dataDir: string;
  readonly heartbeatMs: number | undefined;
  readonly mediaTtlMs: number | undefined;
  readonly echoDelayMs: number;
  readonly uploadLimit: number | undefined;
  readonly workspaceRoots: readonly string[];
  readonly logLevel: NonNullable<BridgeOptions['logLevel']>;
  readonly console: boolean;
  readonly help: boolean;
}

/** The text of `webbridge serve --help`. */
export const SERVE_HELP = `Usage: webbridge serve [options]

Starts the reference host and the bridge, and prints the URL, the access code and a QR code.

Options:
  --port <n>              port to listen on; 0 picks a free one (default 7878)
  --host <address>        address to listen on; 0.0.0.0 for the LAN (default 127.0.0.1)
  --access-code <code>    access code (default: a fresh random code, printed once)
  --data-dir <dir>        where the database, uploads and default workspace live (default ~/.webbridge)
  --workspace-root <dir>  another folder projects may use; repeatable
  --heartbeat-ms <ms>     idle time before an event-stream heartbeat (default 15000)
  --media-ttl-ms <ms>     lifetime of a media id (default 300000)
  --upload-limit <bytes>  largest upload (default 26214400)
  --echo-delay-ms <ms>    pause between words of the echo model (default 30)
  --log-level <level>     fatal, error, warn, info, debug or silent (default info)
  --no-console            no interactive console, even on a terminal
  --help                  show this help
`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const;

/**
 * Parses the flags of `webbridge serve`. Throws an Error with a readable message on a bad
 * value, so the CLI can print it with the usage.
 */
export function parseServeArgs(args: readonly string[]): ServeConfig {
  const { values } = parseArgs({
    // `pnpm start -- --port 0` passes the `--` through; it means nothing here.
    args: args[0] === '--' ? args.slice(1) : [...args],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'access-code': { type: 'string' },
      'data-dir': { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      'media-ttl-ms': { type: 'string' },
      'echo-delay-ms': { type: 'string' },
      'upload-limit': { type: 'string' },
      'workspace-root': { type: 'string', multiple: true },
      'log-level': { type: 'string' },
      'no-console': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const logLevel = values['log-level'] ?? 'info';
  if (!isLogLevel(logLevel)) throw new Error(`--log-level must be one of ${LOG_LEVELS.join(', ')}.`);
  const accessCode = values['access-code'];
  if (accessCode !== undefined && accessCode.length < 4) throw new Error('--access-code is too short.');
  const port = integer(values.port, '--port') ?? 7878;
  if (port > 65_535) throw new Error('--port must be at most 65535.');
  return {
    port,
    hostname: values.host ?? '127.0.0.1',
    accessCode,
    dataDir: path.resolve(values['data-dir'] ?? path.join(os.homedir(), '.webbridge')),
    heartbeatMs: positive(values['heartbeat-ms'], '--heartbeat-ms'),
    mediaTtlMs: positive(values['media-ttl-ms'], '--media-ttl-ms'),
    echoDelayMs: integer(values['echo-delay-ms'], '--echo-delay-ms') ?? 30,
    uploadLimit: positive(values['upload-limit'], '--upload-limit'),
    workspaceRoots: (values['workspace-root'] ?? []).map((root) => path.resolve(root)),
    logLevel,
    console: values['no-console'] !== true,
    help: values.help === true,
  };
}

function isLogLevel(value: string): value is ServeConfig['logLevel'] {
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
