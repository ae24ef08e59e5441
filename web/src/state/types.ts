import type { StoreState } from '@webbridge/client-sdk';

/**
 * The state types the page renders, derived from the SDK's store (itself derived from the
 * contract), so nothing here mirrors a schema by hand.
 */
export type Snapshot = NonNullable<StoreState['snapshot']>;
/** A message of the current branch. */
export type Message = Snapshot['conversations']['messages'][number];
/** An attachment with its media id. */
export type Attachment = Message['attachments'][number];
/** A media id and its expiry. */
export type MediaRef = Attachment['media'];
/** A pending approval. */
export type Approval = Snapshot['approvals'][number];
/** The controller's settings. */
export type Settings = Snapshot['settings'];
/** One entry of the conversation list. */
export type ConversationSummary = Snapshot['conversations']['list'][number];
/** The run state of the current conversation. */
export type RunStatus = Snapshot['conversations']['run'];
