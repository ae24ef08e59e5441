import type { Projection } from '@webbridge/contract';
import type { Tool } from './Tool';

/** An MCP server's status as the projection lists it. */
export type ToolServerView = NonNullable<Projection['tools']['servers']>[number];

/**
 * Tools that come and go while the host runs: those of the MCP servers, listed while their
 * server is ready. The controller reads it on every projection and offers its tools to the
 * models beside the built-in ones; it is told (from any context) when something changed.
 */
export interface ToolSource {
  /** The tools offered now. */
  list(): readonly Tool[];
  /**
   * A tool by name, also one whose server is away for now (a call approved while its server
   * restarts then fails with a readable reason instead of "no such tool").
   */
  find(name: string): Tool | undefined;
  /** The servers behind the tools and how each is doing. */
  servers(): readonly ToolServerView[];
  /** Calls `listener` after the list or a status changed. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}
