import type { AppendEvent, DeltaEvent, Message, Snapshot, StreamEvent } from '@webbridge/contract';
import { withoutForbiddenKeys } from '@webbridge/contract';
import { assertNever } from './assertNever';
import { MESSAGES_PART, type PartChange, REPLACED_PARTS, withChanges } from './snapshotParts';

/**
 * The client's copy of the server state and the cursor that deltas must match.
 *
 * Messages are located by id with a search from the end of the list rather than an id→index
 * map: `put` and `ap` touch the streaming tail, so the search stops after a few steps, while a
 * map would have to be copied (or mutated, breaking purity) on every delta that adds a message.
 */
export interface SyncState {
  /** The `seq` of the last event applied; the next delta must name it as its `base`. */
  readonly seq: number;
  /** The configuration signature of the last snapshot. */
  readonly signature: string;
  /** The state the user is looking at. */
  readonly snapshot: Snapshot;
}

/** Why a delta was refused. */
export type ResyncReason =
  | 'no_state'
  | 'wrong_base'
  | 'bad_cut'
  | 'unknown_message'
  | 'wrong_offset'
  | 'no_run';

/**
 * The outcome of {@link applyEvent}: the new state, or a refusal after which the caller drops
 * its state and asks for a fresh snapshot.
 */
export type ApplyResult =
  | { readonly kind: 'applied'; readonly state: SyncState }
  | { readonly kind: 'resync'; readonly reason: ResyncReason };

/**
 * Applies one state event. Pure: `state` is never modified.
 *
 * A snapshot replaces the state. A delta applies only to the state at its `base`, in the order
 * of the contract: `cut`, `put`, `set`, `ap`, `add`, then every other delta part of the
 * contract's split (`DELTA_PARTS`: `approvals`, `run`, `pending`), each replaced whole by the
 * field of its name, so a group added to the contract is applied too. Anything that
 * does not fit (another base, no state, an unknown id, an append at another offset) answers
 * `resync`: the client never guesses. Unchanged messages and groups keep their identity, so a
 * UI can skip re-rendering them; the work is proportional to the delta, plus one shallow copy
 * of the message list when it changes.
 *
 * @example
 * ```ts
 * const result = applyEvent(state, event);
 * if (result.kind === 'resync') reconnectWithoutLastEventId();
 * else state = result.state;
 * ```
 */
export function applyEvent(state: SyncState | null, event: StreamEvent): ApplyResult {
  switch (event.kind) {
    case 'snapshot':
      return {
        kind: 'applied',
        state: { seq: event.seq, signature: event.signature, snapshot: withoutForbiddenKeys(event.snapshot) },
      };
    case 'delta':
      return applyDelta(state, event);
    case 'append':
      return applyAppend(state, event);
    default:
      return assertNever(event, 'state event');
  }
}

function applyDelta(state: SyncState | null, delta: DeltaEvent): ApplyResult {
  if (state === null) return resync('no_state');
  if (delta.base !== state.seq) return resync('wrong_base');
  const before = MESSAGES_PART.read(state.snapshot) as readonly Message[];
  let after: Message[] | undefined;
  const current = (): readonly Message[] => after ?? before;
  const writable = (): Message[] => {
    after ??= before.slice();
    return after;
  };

  if (delta.cut !== undefined) {
    if (delta.cut > before.length) return resync('bad_cut');
    if (delta.cut < before.length) after = before.slice(0, delta.cut);
  }
  for (const message of delta.put ?? []) {
    const index = lastIndexOfId(current(), message.id);
    if (index < 0) return resync('unknown_message');
    writable()[index] = withoutForbiddenKeys(message);
  }
  for (const [id, fields] of delta.set ?? []) {
    const index = lastIndexOfId(current(), id);
    const message = current()[index];
    if (message === undefined) return resync('unknown_message');
    // JSON carries no undefined, so every field present is a real value.
    writable()[index] = { ...message, ...withoutForbiddenKeys(fields), id: message.id } as Message;
  }
  for (const [id, offset, text] of delta.ap ?? []) {
    const index = lastIndexOfId(current(), id);
    const message = current()[index];
    if (message === undefined) return resync('unknown_message');
    if (offset !== message.text.length) return resync('wrong_offset');
    if (text !== '') writable()[index] = { ...message, text: message.text + text };
  }
  if (delta.add !== undefined && delta.add.length > 0) {
    const list = writable();
    // A loop, not push(...add): spreading a very long array overflows the call stack.
    for (const message of delta.add) list.push(withoutForbiddenKeys(message));
  }

  const changes: PartChange[] = [];
  if (after !== undefined) changes.push({ path: MESSAGES_PART.path, value: after });
  const fields = delta as unknown as Record<string, unknown>;
  for (const { field, part } of REPLACED_PARTS) {
    // JSON carries no undefined: a field present is the part's new value, whole.
    const value = fields[field];
    if (value !== undefined) changes.push({ path: part.path, value: withoutForbiddenKeys(value) });
  }
  const snapshot = withChanges(state.snapshot, changes);
  return { kind: 'applied', state: { seq: delta.seq, signature: state.signature, snapshot } };
}

/**
 * A compact append: the text goes to the message the run is producing. The offset is implied
 * by the base: a client at `base` holds exactly the server's text at `base`.
 */
function applyAppend(state: SyncState | null, event: AppendEvent): ApplyResult {
  if (state === null) return resync('no_state');
  if (event.base !== state.seq) return resync('wrong_base');
  const prev = state.snapshot;
  const id = prev.conversations.run.messageId;
  if (id === null) return resync('no_run');
  const before = MESSAGES_PART.read(prev) as readonly Message[];
  const index = lastIndexOfId(before, id);
  const message = before[index];
  if (message === undefined) return resync('unknown_message');
  const messages = before.slice();
  messages[index] = { ...message, text: message.text + event.text };
  const snapshot = withChanges(prev, [{ path: MESSAGES_PART.path, value: messages }]);
  return { kind: 'applied', state: { seq: event.seq, signature: state.signature, snapshot } };
}

function lastIndexOfId(messages: readonly Message[], id: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.id === id) return i;
  return -1;
}

function resync(reason: ResyncReason): ApplyResult {
  return { kind: 'resync', reason };
}
