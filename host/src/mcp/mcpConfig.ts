import fs from 'node:fs';
import path from 'node:path';

/** Whether calls of a server's tools wait for the user: `ask` (default) or `allow` (trusted). */
export type McpApproval = 'ask' | 'allow';

/** What every server entry may say, whatever its transport. */
interface McpCommon {
  /** The key of the entry in `mcpServers`; its tools are named `<name>__<tool>`. */
  readonly name: string;
  readonly approval: McpApproval;
  /** A tool call without an answer after this long is cancelled. */
  readonly timeoutMs: number;
}

/** A server the host starts as a child process and speaks to over stdin/stdout. */
export interface McpStdioConfig extends McpCommon {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** The child's whole environment (beside a minimal PATH): nothing of the host's is passed on. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
}

/** A server the host reaches over Streamable HTTP. */
export interface McpHttpConfig extends McpCommon {
  readonly transport: 'http';
  readonly url: URL;
  /** Sent with every request (e.g. `Authorization`). Never logged. */
  readonly headers: Readonly<Record<string, string>>;
}

/** One usable server entry. */
export type McpServerConfig = McpStdioConfig | McpHttpConfig;

/** An entry that cannot be used: it is listed as failed with this reason, and never retried. */
interface McpInvalidEntry {
  readonly name: string;
  readonly transport: 'stdio' | 'http';
  readonly invalid: string;
}

/** A server entry of the config, usable or not. */
export type McpEntry = McpServerConfig | McpInvalidEntry;

/** Default of `timeoutMs`: the MCP SDK's own request timeout. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
/** Longest `timeoutMs` accepted (one hour). */
const MAX_TIMEOUT_MS = 3_600_000;
/** Server names: they prefix tool names, which models accept only in `[A-Za-z0-9_-]{1,64}`. */
const NAME = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Reads the MCP config files that exist, in order, and returns their server entries; a later
 * file's entry replaces an earlier one of the same name. The shape is the one desktop chat
 * apps use: `{ "mcpServers": { "<name>": { "command", "args", "env" } | { "url", "headers" } } }`,
 * plus `approval`, `timeoutMs` and `disabled` per server (unknown keys are ignored).
 *
 * A file that cannot be read or is not such an object throws (a startup error, like a bad
 * certificate); a single bad entry becomes an {@link McpInvalidEntry} instead. Messages name
 * keys, never values: the values of `env` and `headers` are secrets.
 *
 * @example
 * ```ts
 * loadMcpConfig([{ file: `${dataDir}/mcp.json`, optional: true }, { file: flagFile, optional: false }]);
 * ```
 */
export function loadMcpConfig(
  files: readonly { readonly file: string; readonly optional: boolean }[],
): McpEntry[] {
  const byName = new Map<string, McpEntry>();
  for (const { file, optional } of files) {
    const text = readConfigFile(file, optional);
    if (text === undefined) continue;
    for (const entry of parseMcpConfig(text, file)) byName.set(entry.name, entry);
  }
  return [...byName.values()];
}

/** Parses the text of one config file (see {@link loadMcpConfig}); `file` names it in errors. */
export function parseMcpConfig(text: string, file: string): McpEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON.`);
  }
  if (!isObject(value)) throw new Error(`${file} must hold a JSON object with "mcpServers".`);
  const servers = value.mcpServers ?? {};
  if (!isObject(servers)) throw new Error(`${file}: "mcpServers" must be an object of servers by name.`);
  const base = path.dirname(path.resolve(file));
  const entries: McpEntry[] = [];
  for (const [name, raw] of Object.entries(servers)) {
    if (isObject(raw) && raw.disabled === true) continue;
    entries.push(parseEntry(name, raw, base));
  }
  return entries;
}

function parseEntry(name: string, raw: unknown, base: string): McpEntry {
  const transport = isObject(raw) && raw.url !== undefined ? 'http' : 'stdio';
  try {
    if (!NAME.test(name)) throw new Error('the name may use letters, digits, "-" and "_" only (at most 32)');
    if (!isObject(raw)) throw new Error('the entry must be an object');
    const common = { name, approval: approvalOf(raw.approval), timeoutMs: timeoutOf(raw.timeoutMs) };
    const type = raw.type;
    if (type === 'sse') throw new Error('the SSE transport is not supported; use Streamable HTTP');
    if (transport === 'http') {
      if (type !== undefined && type !== 'http' && type !== 'streamable-http' && type !== 'streamableHttp') {
        throw new Error('"type" must be "http" for a server with a "url"');
      }
      return { ...common, transport, url: urlOf(raw.url), headers: stringRecord(raw.headers, 'headers') };
    }
    if (type !== undefined && type !== 'stdio')
      throw new Error('"type" must be "stdio" for a server with a "command"');
    if (typeof raw.command !== 'string' || raw.command.trim() === '') {
      throw new Error('give a "command" (stdio) or a "url" (Streamable HTTP)');
    }
    const args = raw.args ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      throw new Error('"args" must be a list of strings');
    }
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') throw new Error('"cwd" must be a string');
    return {
      ...common,
      transport,
      command: raw.command,
      args,
      env: stringRecord(raw.env, 'env'),
      // A relative folder is taken from the config file's folder, not from wherever the host started.
      cwd: raw.cwd === undefined ? undefined : path.resolve(base, raw.cwd),
    };
  } catch (error) {
    return { name, transport, invalid: `Invalid config: ${(error as Error).message}.` };
  }
}

function readConfigFile(file: string, optional: boolean): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(
      `Cannot read the MCP config ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`,
    );
  }
}

function approvalOf(value: unknown): McpApproval {
  if (value === undefined || value === 'ask' || value === 'allow') return value ?? 'ask';
  throw new Error('"approval" must be "ask" or "allow"');
}

function timeoutOf(value: unknown): number {
  if (value === undefined) return DEFAULT_MCP_TIMEOUT_MS;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TIMEOUT_MS)
    return value;
  throw new Error(`"timeoutMs" must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
}

function urlOf(value: unknown): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new Error('"url" must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('"url" must be http or https');
  return url;
}

function stringRecord(value: unknown, key: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error(`"${key}" must be an object of strings`);
  const entries = Object.entries(value);
  for (const [name, item] of entries) {
    // The name may be said, the value never: it is usually a credential.
    if (typeof item !== 'string') throw new Error(`"${key}.${name}" must be a string`);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a key.
  return Object.fromEntries(entries) as Record<string, string>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
