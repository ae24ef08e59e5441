import type { AgentApp } from '@agentclientprotocol/sdk';

/** An agent the host starts as a child process and speaks ACP to over its stdio. */
export interface AgentCommandEntry {
  /** Its id in the snapshot and in actions (`[A-Za-z0-9_-]`, not `builtin`). */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Variables given to it on top of the basic ones (see `agentLaunch`). Values are never logged. */
  readonly env: Readonly<Record<string, string>>;
  /** The folder it starts in. @default the first workspace root */
  readonly cwd: string | undefined;
  /** What to run on the host to sign in, when the agent asks for it (known agents have one). */
  readonly signIn: string | undefined;
}

/** An agent app in the host's own process (tests, embedding): no child, the same connection. */
export interface AgentAppEntry {
  readonly name: string;
  /** Makes a fresh agent app for each (re)start. */
  readonly app: () => AgentApp;
}

/** An entry that cannot be used: listed as failed with this reason, never started. */
interface AgentInvalidEntry {
  readonly name: string;
  readonly invalid: string;
}

/** One configured agent, usable or not. */
export type AgentEntry = AgentCommandEntry | AgentAppEntry | AgentInvalidEntry;
