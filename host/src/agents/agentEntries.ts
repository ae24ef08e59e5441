import path from 'node:path';
import type { AgentEntry } from './AgentEntry';
import { loadAgentConfig, parseAgentFlag } from './agentConfig';
import { knownAgentsOnPath, knownSignIn } from './knownAgents';

/** Where the host's agents come from (see {@link agentEntries}). */
export interface AgentSources {
  /** The data folder: `<dataDir>/agents.json` is read when it exists. */
  readonly dataDir: string;
  /** `--agents-config`: read after it (must exist). */
  readonly configFile?: string;
  /** Each `--agent NAME=COMMAND` value. */
  readonly flags?: readonly string[];
  /** Offer the well-known agents found on this PATH; undefined offers none. */
  readonly knownOnPath?: string;
}

/**
 * The configured agents, later sources replacing earlier ones of the same name: well-known
 * agents found on PATH, then `<dataDir>/agents.json`, then `--agents-config`, then `--agent`
 * flags. Throws a readable Error for a bad flag or an unreadable file (startup errors).
 */
export function agentEntries(sources: AgentSources): AgentEntry[] {
  const byName = new Map<string, AgentEntry>();
  const add = (entries: readonly AgentEntry[]) => {
    for (const entry of entries) byName.set(entry.name, entry);
  };
  if (sources.knownOnPath !== undefined) add(knownAgentsOnPath(sources.knownOnPath));
  add(
    loadAgentConfig([
      { file: path.join(sources.dataDir, 'agents.json'), optional: true },
      ...(sources.configFile === undefined ? [] : [{ file: sources.configFile, optional: false }]),
    ]),
  );
  add((sources.flags ?? []).map(parseAgentFlag));
  return [...byName.values()].map((entry) =>
    'command' in entry && entry.signIn === undefined
      ? { ...entry, signIn: knownSignIn(entry.command) }
      : entry,
  );
}
