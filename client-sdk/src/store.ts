import type { Action, Snapshot, StreamEvent } from '@webbridge/contract';
import { type ApplyResult, applyEvent, type SyncState } from './reducer';
import { shareUnchanged } from './shareUnchanged';

/**
 * Where the event stream is:
 * - `connecting`: the first connection attempt, no state yet;
 * - `live`: the stream is open, bytes (events or heartbeats) arrive within the heartbeat
 *   interval plus a grace (see `staleAfterMs`), and the state is current;
 * - `reconnecting`: the stream went silent or was lost and is being checked or reopened (the
 *   state shown may be stale: see {@link StoreState.lastCurrentAt});
 * - `offline`: not connected; closed, the browser says it is offline, or several attempts in
 *   a row failed (it keeps retrying in the background);
 * - `unauthorized`: the access code was refused (401); nothing is retried until a new code.
 */
export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'unauthorized';

/**
 * An action sent but not answered because the host could not be reached (a network error,
 * not a refusal). It is retried with the same `actionId` (the host applies an id once) until
 * the host answers; a UI shows it as "sending…".
 */
export interface PendingAction {
  readonly actionId: string;
  readonly action: Action;
  /** When it was first sent (epoch milliseconds). */
  readonly since: number;
  /** How many times it has been sent so far. */
  readonly attempts: number;
}

/** What a UI renders. */
export interface StoreState {
  readonly status: ConnectionStatus;
  /**
   * When the state was last known current (epoch milliseconds): the last event or heartbeat of
   * a live stream, set when the stream stops being live (while live it is current now). Null
   * until a stream has stopped being live.
   */
  readonly lastCurrentAt: number | null;
  /** Actions that could not reach the host yet, oldest first. */
  readonly pendingActions: readonly PendingAction[];
  /**
   * The state the user is looking at: the last one applied from the stream, or the last one
   * fetched from GET /api/state, whichever came later. Null before the first one.
   */
  readonly snapshot: Snapshot | null;
  /**
   * The event stream's cursor (the state deltas apply to). Null before the first snapshot
   * event and after a resynchronisation; `snapshot` stays on screen meanwhile.
   */
  readonly sync: SyncState | null;
  /** The server speaks another protocol version: ask the user to reload the page. */
  readonly reloadRequired: boolean;
}

/** A listener of store changes. */
export type StoreListener = (state: StoreState, previous: StoreState) => void;

/** The read side of the store, which a UI binds to. */
export interface Store {
  /** The current state; the same object until something changes. */
  getState(): StoreState;
  /** Calls `listener` after every change. Returns the function that removes it. */
  subscribe(listener: StoreListener): () => void;
}

/** The store with the writers the client and the event connection use. */
export interface WritableStore extends Store {
  /**
   * Runs the reducer; on `resync` drops the cursor and keeps the snapshot on screen. A full
   * snapshot keeps the identity of every message and group it leaves unchanged (see
   * {@link shareUnchanged}), as a delta does, so a UI re-renders only what changed.
   */
  apply(event: StreamEvent): ApplyResult;
  /**
   * Shows a snapshot fetched outside the stream (GET /api/state), sharing what it leaves
   * unchanged. A cursor the stream keeps is kept; without one, the snapshot's event id `seq`
   * (its ETag), when known, becomes the cursor, so the next connection resumes from it.
   */
  replaceSnapshot(snapshot: Snapshot, seq?: number): void;
  /** Drops the stream cursor so that the next connection starts from a snapshot. */
  dropSync(): void;
  /** Sets the status; `lastCurrentAt`, when given, too (see {@link StoreState.lastCurrentAt}). */
  setStatus(status: ConnectionStatus, lastCurrentAt?: number): void;
  /** Adds or updates (same `actionId`) an action that could not reach the host. */
  putPending(pending: PendingAction): void;
  /** Forgets a pending action (answered, refused or given up). */
  removePending(actionId: string): void;
  /** Marks that the page must be reloaded (another protocol version). */
  requireReload(): void;
}

/**
 * Creates the store a UI binds to: a current state, replaced (never mutated) on each change,
 * and a set of listeners.
 *
 * @example
 * ```ts
 * const store = createStore();
 * const unsubscribe = store.subscribe((state) => render(state.snapshot, state.status));
 * ```
 */
export function createStore(): WritableStore {
  let state: StoreState = {
    status: 'connecting',
    lastCurrentAt: null,
    pendingActions: [],
    snapshot: null,
    sync: null,
    reloadRequired: false,
  };
  const listeners = new Set<StoreListener>();

  const set = (next: StoreState): void => {
    if (next === state) return;
    const previous = state;
    state = next;
    // A copy: a listener may unsubscribe itself (or another) while being called.
    for (const listener of [...listeners]) listener(next, previous);
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    apply(event) {
      const result = applyEvent(state.sync, event);
      if (result.kind === 'applied') {
        // A delta shares what it did not touch already; a full snapshot is made to.
        const applied =
          event.kind === 'snapshot'
            ? { ...result.state, snapshot: shareUnchanged(state.snapshot, result.state.snapshot) }
            : result.state;
        set({ ...state, sync: applied, snapshot: applied.snapshot });
      } else if (state.sync !== null) {
        set({ ...state, sync: null });
      }
      return result;
    },
    replaceSnapshot(snapshot, seq) {
      const shared = shareUnchanged(state.snapshot, snapshot);
      if (state.sync === null && seq !== undefined) {
        // GET /api/state does not send the configuration signature; nothing in the client
        // compares it (a new configuration always comes as a snapshot event).
        set({ ...state, snapshot: shared, sync: { seq, signature: '', snapshot: shared } });
      } else if (shared !== state.snapshot) set({ ...state, snapshot: shared });
    },
    dropSync() {
      if (state.sync !== null) set({ ...state, sync: null });
    },
    setStatus(status, lastCurrentAt) {
      const at = lastCurrentAt ?? state.lastCurrentAt;
      if (status !== state.status || at !== state.lastCurrentAt) set({ ...state, status, lastCurrentAt: at });
    },
    putPending(pending) {
      const list = state.pendingActions;
      const index = list.findIndex((p) => p.actionId === pending.actionId);
      const next = index < 0 ? [...list, pending] : list.map((p, i) => (i === index ? pending : p));
      set({ ...state, pendingActions: next });
    },
    removePending(actionId) {
      const next = state.pendingActions.filter((p) => p.actionId !== actionId);
      if (next.length !== state.pendingActions.length) set({ ...state, pendingActions: next });
    },
    requireReload() {
      if (!state.reloadRequired) set({ ...state, reloadRequired: true });
    },
  };
}
