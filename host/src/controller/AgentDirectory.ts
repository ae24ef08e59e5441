import type { Agent } from '@webbridge/contract';
import type { AgentConnection } from '../agents/AgentConnection';

/**
 * The ACP agents the controller may back a conversation with: what `Agents`
 * (host/src/agents/Agents.ts) offers the controller, and all it needs of it.
 */
export interface AgentDirectory {
  /** The configured agents and their state (never the built-in loop). */
  list(): readonly Agent[];
  /** Whether an agent of this name is configured. */
  has(name: string): boolean;
  /** Called after any agent's state changed. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /**
   * The agent's live connection, its process started on first use (the same connection while it
   * lives). Rejects with an `AgentError` a person can read.
   */
  connection(name: string): Promise<AgentConnection>;
}
