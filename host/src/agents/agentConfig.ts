import fs from 'node:fs';
import path from 'node:path';
import { BUILTIN_AGENT } from '@webbridge/contract';
import type { AgentCommandEntry, AgentEntry } from './AgentEntry';
import { splitCommandLine } from './splitCommandLine';

/** Agent names: ids in actions and in the snapshot. */
const NAME = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Parses one `--agent NAME=COMMAND` value: the name, then the command line (split like a
 * shell would, with quotes, but never run through one). Throws a readable Error (a startup
 * error, like a bad port).
 *
 * @example
 * ```ts
 * parseAgentFlag('opencode=opencode acp');
 * // { name: 'opencode', command: 'opencode', args: ['acp'], env: {}, cwd: undefined, signIn: undefined }
 * ```
 */
export function parseAgentFlag(value: string): AgentCommandEntry {
  const at = value.indexOf('=');
  if (at <= 0) throw new Error(`--agent takes NAME=COMMAND, e.g. opencode="opencode acp" (got "${value}").`);
  const name = value.slice(0, at);
  checkName(name, '--agent');
  let words: string[];
  try {
    words = splitCommandLine(value.slice(at + 1));
  } catch (error) {
    throw new Error(`--agent ${name}: ${(error as Error).message}`);
  }
  const [command, ...args] = words;
  if (command === undefined) throw new Error(`--agent ${name}: the command is empty.`);
  return { name, command, args, env: {}, cwd: undefined, signIn: undefined };
}

/**
 * Reads the agents config files that exist, in order; a later entry replaces an earlier one of
 * the same name. The shape mirrors the MCP config's:
 * `{ "agents": { "<name>": { "command", "args", "env", "cwd", "signIn", "disabled" } } }`.
 * A file that cannot be read or is not such an object throws; a bad entry becomes an invalid
 * entry (listed as failed). Messages name keys, never `env` values (they are secrets).
 */
export function loadAgentConfig(
  files: readonly { readonly file: string; readonly optional: boolean }[],
): AgentEntry[] {
  const byName = new Map<string, AgentEntry>();
  for (const { file, optional } of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (optional && code === 'ENOENT') continue;
      throw new Error(`Cannot read the agents config ${file}: ${code ?? 'error'}.`);
    }
    for (const entry of parseAgentConfig(text, file)) byName.set(entry.name, entry);
  }
  return [...byName.values()];
}

/** Parses the text of one agents config file (see {@link loadAgentConfig}); `file` names it in errors. */
export function parseAgentConfig(text: string, file: string): AgentEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON.`);
  }
  if (!isObject(value)) throw new Error(`${file} must hold a JSON object with "agents".`);
  const agents = value.agents ?? {};
  if (!isObject(agents)) throw new Error(`${file}: "agents" must be an object of agents by name.`);
  const base = path.dirname(path.resolve(file));
  const entries: AgentEntry[] = [];
  for (const [name, raw] of Object.entries(agents)) {
    if (isObject(raw) && raw.disabled === true) continue;
    try {
      entries.push(parseEntry(name, raw, base));
    } catch (error) {
      entries.push({ name, invalid: `Invalid config: ${(error as Error).message}.` });
    }
  }
  return entries;
}

function parseEntry(name: string, raw: unknown, base: string): AgentCommandEntry {
  checkName(name, 'the name');
  if (!isObject(raw)) throw new Error('the entry must be an object');
  if (typeof raw.command !== 'string' || raw.command.trim() === '') throw new Error('give a "command"');
  const args = raw.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
    throw new Error('"args" must be a list of strings');
  }
  if (raw.cwd !== undefined && typeof raw.cwd !== 'string') throw new Error('"cwd" must be a string');
  if (raw.signIn !== undefined && typeof raw.signIn !== 'string')
    throw new Error('"signIn" must be a string');
  return {
    name,
    command: raw.command,
    args,
    env: stringRecord(raw.env),
    // A relative folder is taken from the config file's folder, not from wherever the host started.
    cwd: raw.cwd === undefined ? undefined : path.resolve(base, raw.cwd),
    signIn: raw.signIn,
  };
}

function checkName(name: string, what: string): void {
  if (!NAME.test(name)) {
    throw new Error(`${what} "${name}" may use letters, digits, "-" and "_" only (at most 32)`);
  }
  if (name === BUILTIN_AGENT) throw new Error(`${what} "${BUILTIN_AGENT}" is the host's own agent`);
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new Error('"env" must be an object of strings');
  const entries = Object.entries(value);
  for (const [name, item] of entries) {
    // The name may be said, the value never: it is usually a credential.
    if (typeof item !== 'string') throw new Error(`"env.${name}" must be a string`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
