import type { Agent as AgentStatus } from '@webbridge/contract';
import type { AgentConnection, AgentInfo } from './AgentConnection';
import type { AgentEntry } from './AgentEntry';
import { AgentError } from './AgentError';
import type { AgentLog } from './AgentLog';
import { AgentProcess, type AgentTuning } from './AgentProcess';
import type { WorkspaceAccess } from './WorkspaceClient';

/** Options of {@link Agents}. */
export interface AgentsOptions {
  /** The configured agents (flags, config file, well-known ones found on PATH; see `agentEntries`). */
  readonly entries: readonly AgentEntry[];
  /** Decides which folders a session may use as its workspace. */
  readonly authoriser: WorkspaceAccess;
  /** Where lifecycle lines and the agents' stderr go. @default nowhere */
  readonly log?: AgentLog;
  readonly tuning?: AgentTuning;
}

/**
 * The host's ACP agents: one {@link AgentProcess} per configured agent, started on first use.
 * The built-in loop (`builtin`) is not in this registry: the controller lists it first and it
 * stays the default agent. Listeners are told after any change of an agent's status.
 *
 * @example
 * ```ts
 * const agents = new Agents({ entries: agentEntries({ flags, files, path: process.env.PATH }), authoriser, log });
 * const connection = await agents.connection('opencode');
 * // ... at shutdown
 * await agents.close();
 * ```
 */
export class Agents {
  private readonly processes = new Map<string, AgentProcess>();
  private readonly invalid: readonly AgentStatus[];
  private readonly listeners = new Set<() => void>();
  private readonly log: AgentLog;
  private cache: readonly AgentStatus[] | undefined;
  /** A host that exits without closing (its shutdown budget spent) still takes the agents along. */
  private readonly onExit = () => {
    for (const agent of this.processes.values()) agent.killNow();
  };

  constructor(options: AgentsOptions) {
    this.log = options.log ?? (() => {});
    const invalid: AgentStatus[] = [];
    const context = {
      authoriser: options.authoriser,
      log: this.log,
      tuning: options.tuning ?? {},
      onChange: () => this.changed(),
    };
    for (const entry of options.entries) {
      if (this.processes.has(entry.name) || invalid.some((status) => status.name === entry.name)) continue;
      if ('invalid' in entry) {
        invalid.push({ name: entry.name, builtin: false, state: 'failed', reason: entry.invalid });
        this.log('error', `Agent "${entry.name}": ${entry.invalid}`, entry.name);
        continue;
      }
      this.processes.set(entry.name, new AgentProcess(entry, context));
    }
    this.invalid = invalid;
    if (this.processes.size > 0) process.once('exit', this.onExit);
  }

  /** Whether any agent is configured (usable or not). */
  get configured(): boolean {
    return this.processes.size + this.invalid.length > 0;
  }

  /** Every configured agent and its state, in configuration order (invalid ones last). */
  list(): readonly AgentStatus[] {
    this.cache ??= [...[...this.processes.values()].map((agent) => agent.status()), ...this.invalid];
    return this.cache;
  }

  /** Whether `name` is a configured agent (an invalid one included). */
  has(name: string): boolean {
    return this.processes.has(name) || this.invalid.some((status) => status.name === name);
  }

  /** What the agent said in `initialize`, once it has started. */
  info(name: string): AgentInfo | undefined {
    return this.processes.get(name)?.info;
  }

  /**
   * The agent's live connection, starting its process on first use. Rejects with an
   * {@link AgentError} a person can read: not configured, invalid, failed (waiting for its
   * restart), or it could not start.
   */
  connection(name: string): Promise<AgentConnection> {
    const agent = this.processes.get(name);
    if (agent) return agent.connection();
    const invalid = this.invalid.find((status) => status.name === name);
    const reason = invalid?.reason ?? `There is no agent "${name}" on this host.`;
    return Promise.reject(new AgentError('unavailable', reason));
  }

  /** Restarts an agent now (see `AgentProcess.restart`). False when there is no startable agent of that name. */
  restart(name: string): boolean {
    const agent = this.processes.get(name);
    if (!agent) return false;
    this.log('info', `Agent "${name}" is being restarted.`, name);
    agent.restart();
    return true;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends every agent's process group (host shutdown). */
  async close(): Promise<void> {
    this.listeners.clear();
    process.removeListener('exit', this.onExit);
    await Promise.all([...this.processes.values()].map((agent) => agent.close()));
  }

  private changed(): void {
    this.cache = undefined;
    for (const listener of this.listeners) listener();
  }
}
