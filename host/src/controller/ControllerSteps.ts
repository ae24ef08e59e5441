import type { Settings } from '@webbridge/contract';
import type { StoredMessage } from '../db/StoredMessage';

/**
 * The steps the controller's action groups share, done by `ControllerCore`: publish, start a
 * reply, move to another conversation, refuse to act mid-reply. Each group asks for the few it
 * takes (`Pick<ControllerSteps, 'refresh' | 'moveTo'>`), so what a group can do is in its type.
 */
export interface ControllerSteps {
  /** The current settings (replaced, never mutated, on update). */
  readonly settings: Settings;
  /** Rebuilds the projection and tells subscribers. */
  refresh(): void;
  /** {@link refresh} at the end of this event-loop turn, unless one runs before (an agent's send). */
  refreshSoon(): void;
  /** Makes a conversation current (a new session revision) and publishes. */
  moveTo(conversationId: string): void;
  /** Records that the destination of a send has changed. */
  bumpSessionRevision(): void;
  /** Throws unless the current conversation is idle. */
  assertIdle(): void;
  /** Throws 422 when the current conversation is an agent's (its history cannot fork). */
  assertForkable(): void;
  /** Throws 422 when the current conversation's agent is known not to take one of `files`. */
  assertAgentTakes(files: readonly { readonly type: string; readonly name: string }[]): void;
  /** Asks the model again under a tool call's result, when the agent loop goes on (does not publish). */
  followToolResult(conversationId: string, result: StoredMessage | undefined): void;
  /** Starts streaming a reply already stored. */
  startReply(reply: StoredMessage): void;
  /** Replaces the settings (the caller has persisted them). */
  replaceSettings(next: Settings): void;
}
