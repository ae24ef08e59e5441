import {
  ACTION_ID_TTL_MS,
  type Action,
  type ActionOf,
  type ActionResponse,
  type ActionResultOf,
  identityOf,
  isSensitiveAction,
  madeAgainst,
  type Projection,
  ProtocolError,
  sameIdentity,
} from '@webbridge/contract';
import type { ActionOrigin, HostActionHandlers, HostActionName, HostAdapter } from '../HostAdapter';
import { holderOf, type MediaRegistry } from '../media/MediaRegistry';
import type { Outcome } from './Outcome';
import type { RecentActions } from './recentActions';

/** The origin of an action sent with the access code itself: no device. */
const NO_ORIGIN: ActionOrigin = Object.freeze({});

/**
 * Applies actions: the identity check and the effect run in one task on the host's main
 * executor, with no await between them, so no other action can slip in between. A repeated
 * `actionId` returns the first outcome and applies nothing, also through a later bridge of the
 * same host (BridgeMemory.ts).
 */
export class ActionDispatcher {
  private lastMismatch: ProtocolError | undefined;

  constructor(
    private readonly host: HostAdapter,
    private readonly media: MediaRegistry,
    /** The action ids of this host's run, kept by the host's BridgeMemory across bridges. */
    private readonly recent: RecentActions,
    /** A monotonic clock: a wall clock set forward would forget every id at once. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Applies `action` (or answers a repeated id) for `client` (who sent it; see RecentAction),
   * on behalf of `origin` (the device that sent it, handed to the host's handler).
   * A refusal is the outcome's error, not a rejection: a throw per request is a large share of
   * a refusal's server CPU (figures in docs/DECISIONS.md), and a rejection throws again in every async frame
   * it passes, so the expected refusals (a 409 above all) travel as values to the answer.
   */
  dispatch(action: Action, client = 'local', origin: ActionOrigin = NO_ORIGIN): Promise<Outcome> {
    const id = action.actionId;
    // Without an id there is nothing to remember: one task on the executor, no bookkeeping.
    // A fresh media id changes nothing, and an id from this bridge's registry would mean
    // nothing to a later bridge of the host: a repeated refreshMedia simply runs again.
    if (id === undefined || action.action === 'refreshMedia') return this.run(action, origin);
    return this.remembered(action, id, client, origin);
  }

  private remembered(action: Action, id: string, client: string, origin: ActionOrigin): Promise<Outcome> {
    this.recent.forgetOlderThan(this.now() - ACTION_ID_TTL_MS);
    const seen = this.recent.get(id);
    if (seen) {
      if (seen.action === action.action) return seen.outcome.then((outcome) => this.namingCurrent(outcome));
      return Promise.resolve({
        ok: false,
        error: new ProtocolError('invalid_request', 'This actionId was already used for another action.'),
      });
    }
    // Kept for repeats, so it must settle as an outcome even if the executor itself fails.
    const outcome = this.run(action, origin).catch((error: unknown): Outcome => ({ ok: false, error }));
    this.recent.remember(id, { at: this.now(), action: action.action, client, outcome });
    return outcome;
  }

  /**
   * A remembered 409 names the identity current now, not the one it was first answered with:
   * the host may have moved on since, and a client shows its person the place the 409 names
   * (an old one would also make the identity seem to go backwards). Still nothing is applied.
   */
  private namingCurrent(outcome: Outcome): Promise<Outcome> | Outcome {
    const error = outcome.ok ? undefined : outcome.error;
    if (!(error instanceof ProtocolError) || error.code !== 'session_mismatch') return outcome;
    return this.host.runOnMain(
      (): Outcome => ({
        ok: false,
        error: new ProtocolError('session_mismatch', error.message, {
          ...error.extras,
          current: identityOf(this.host.readState()),
        }),
      }),
    );
  }

  /**
   * The 409 naming the identity current now. One refusal per identity, kept until it moves:
   * a client that keeps sending against an old identity gets the same (immutable) error, whose
   * problem body is then serialised once (errors/renderProblem.ts).
   */
  private mismatch(state: Projection): ProtocolError {
    const last = this.lastMismatch;
    if (last !== undefined && sameIdentity(last.extras.current, state)) return last;
    const error = new ProtocolError(
      'session_mismatch',
      'The session changed since this action was made; nothing was done.',
      { current: identityOf(state) },
    );
    this.lastMismatch = error;
    return error;
  }

  /**
   * One task on the host's executor; what it throws becomes the outcome's error too. A host's
   * asynchronous check (HostAdapter.checkAction) runs first, off the executor.
   */
  private run(action: Action, origin: ActionOrigin): Promise<Outcome> {
    const checking = this.host.checkAction?.(action, origin);
    if (checking === undefined) return this.runChecked(action, origin);
    return checking.then(
      () => this.runChecked(action, origin),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
  }

  private runChecked(action: Action, origin: ActionOrigin): Promise<Outcome> {
    // A deferred outcome is a promise the task returns: the executor's promise adopts it (a
    // promise resolved with a promise follows it), so an action answered at once costs no
    // second promise and no extra turn of the microtask queue on its way to the answer.
    return this.host.runOnMain((): Outcome | Promise<Outcome> => {
      try {
        return settleDeferred(this.apply(action, origin));
      } catch (error) {
        return { ok: false, error };
      }
    }) as Promise<Outcome>;
  }

  /** Runs on the main executor: check, then apply. Must not await. */
  private apply(action: Action, origin: ActionOrigin): Outcome {
    if (isSensitiveAction(action)) {
      const state = this.host.readState();
      if (!madeAgainst(action, state)) return { ok: false, error: this.mismatch(state) };
    }
    switch (action.action) {
      case 'refreshMedia': {
        if (!this.host.resolveMedia(action.attachmentId)) {
          throw new ProtocolError('not_found', 'There is no such attachment.');
        }
        // The sender's own id: forgetting its device revokes it with the rest of its ids.
        const media = this.media.issue(action.attachmentId, holderOf(origin.device));
        return {
          ok: true,
          value: { action: 'refreshMedia', result: { attachmentId: action.attachmentId, media } },
        };
      }
      case 'workspace': {
        const uri = this.host.authoriseWorkspace(action.uri);
        if (uri === undefined) {
          throw new ProtocolError(
            'workspace_forbidden',
            'That folder is not inside an authorised workspace.',
          );
        }
        return { ok: true, value: respond(this.host.actions, { ...action, uri }, origin) };
      }
      default:
        return { ok: true, value: respond(this.host.actions, action, origin) };
    }
  }
}

/**
 * A deferred action's handler answered with a promise (DeferredActionName): its outcome is that
 * promise's, settled off the executor (this only attaches to it). Every other outcome passes as
 * it is.
 */
function settleDeferred(outcome: Outcome): Outcome | Promise<Outcome> {
  if (!outcome.ok) return outcome;
  const { value } = outcome;
  const result: unknown = value.result;
  if (!(result instanceof Promise)) return outcome;
  return result.then(
    (settled): Outcome => ({ ok: true, value: { ...value, result: settled } as ActionResponse }),
    (error: unknown): Outcome => ({ ok: false, error }),
  );
}

/** Calls the host's handler for an action and wraps its result. */
function respond(
  handlers: HostActionHandlers,
  action: ActionOf<HostActionName>,
  origin: ActionOrigin,
): ActionResponse {
  // The mapped handler type pairs each name with its action; TypeScript cannot follow that
  // correlation through an index, so the call is typed by hand once, here.
  const handler = handlers[action.action] as (
    a: typeof action,
    origin: ActionOrigin,
  ) => ActionResultOf<HostActionName>;
  const result: unknown = handler(action, origin);
  // A deferred handler's promise may reject at once (an agent that is not configured); it must
  // never be reported as unhandled, whoever reads it later. settleDeferred still receives it.
  if (result instanceof Promise) result.catch(() => {});
  return { action: action.action, result } as ActionResponse;
}
