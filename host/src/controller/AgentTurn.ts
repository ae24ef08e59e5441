/** A question of the agent waiting for a person. */
interface PendingQuestion {
  readonly messageId: string;
  readonly toolCallId: string;
  readonly answer: (optionId: string | undefined) => void;
}

/** One prompt turn of an ACP conversation (or the replay of a session's history). */
export interface AgentTurn {
  readonly conversationId: string;
  /** The message chunks go to now, and under which the next message goes; none before the first. */
  current: { readonly id: string; kind: 'text' | 'thought' | 'tool' } | undefined;
  /** A replay of history (`session/load` of a session opened from the agent's list): messages are complete. */
  readonly replay: boolean;
  readonly tools: Map<string, string>;
  readonly questions: Map<string, PendingQuestion>;
  /** Paths (absolute) of tool calls the person allowed in this turn: their writes need no second approval. */
  readonly allowedPaths: Set<string>;
  /** Stopped by the person: nothing more of it is applied. */
  stopped: boolean;
}
