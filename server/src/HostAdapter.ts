import type {
  Action,
  ActionName,
  ActionOf,
  ActionResultOf,
  HostAttachment,
  Locale,
  Projection,
} from '@webbridge/contract';

/** Actions a host applies. `refreshMedia` is answered by the bridge itself. */
export type HostActionName = Exclude<ActionName, 'refreshMedia'>;

/**
 * Who sent an action. A request that presented a paired device's credential names that device;
 * the access code itself (and a host's own console, which calls its controller directly) names
 * none. Hosts record it where a person should see who did what (an approval's decision).
 */
export interface ActionOrigin {
  /** The paired device that sent the action; absent for the access code itself. */
  readonly device?: { readonly id: string; readonly name: string } | undefined;
}

/**
 * One handler per host action. The mapped type makes the compiler demand a handler for every
 * action of the contract's union. Handlers run on the host's main executor, after the bridge
 * has checked the session identity in the same task; they return the action's result or throw
 * a `ProtocolError` (e.g. `not_applicable` → 422). A handler must not await: it checks, applies,
 * and starts long work (a model reply) that reports back through later tasks of its own. Only a
 * {@link DeferredActionName} may answer with a promise (its result is what an agent answers).
 */
export type HostActionHandlers = {
  readonly [N in HostActionName]: (
    action: ActionOf<N>,
    origin?: ActionOrigin,
  ) => N extends DeferredActionName ? ActionResultOf<N> | Promise<ActionResultOf<N>> : ActionResultOf<N>;
};

/**
 * The actions whose result only an ACP agent process can give (its sessions, its switch of mode
 * or setting): their handler checks and starts on the executor like any other, and may return a
 * promise the bridge awaits off the executor before it answers. A change the answer makes to
 * the state is applied by the host in a task of its own.
 */
export type DeferredActionName = 'agentSessions' | 'agentMode' | 'agentOption' | 'openAgentSession';

/** A file on disk that a media id grants reading. */
export interface MediaFile {
  /** Absolute path of the file. Never logged. */
  readonly path: string;
  readonly name: string;
  /** MIME type sent as Content-Type. */
  readonly type: string;
  readonly size: number;
}

/** A completed upload, handed to the host which then owns the file. */
export interface CompletedUpload {
  /** Absolute path of the uploaded file, inside the bridge's upload directory. */
  readonly path: string;
  readonly name: string;
  readonly type: string;
  readonly size: number;
  /**
   * The conversation the person was looking at when they picked the file; absent: the current
   * one. An unknown id is refused (`not_found`), and the bridge then deletes the file.
   */
  readonly conversationId?: string | undefined;
}

/**
 * The only door between the bridge and a host app. The bridge owns no controller state: it
 * reads the host's projection, listens for changes, and runs everything that reads-then-writes
 * on the host's main executor.
 *
 * @example
 * ```ts
 * const bridge = createBridge({ host: myAdapter, accessCode: 'k7-plum-river', uploadDir });
 * await bridge.listen({ port: 7878, hostname: '127.0.0.1' });
 * ```
 */
export interface HostAdapter {
  /**
   * The current projection of the controller. Immutable: a change produces a new object in
   * which unchanged parts (groups, messages) keep their identity, so the bridge can diff by
   * reference. Cheap to call (no I/O).
   */
  readState(): Projection;
  /** Calls `listener` after every change of the projection. Returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Runs `task` on the host's main executor, serially, in arrival order. The task must not
   * await: everything it does happens before any other task starts.
   */
  runOnMain<T>(task: () => T): Promise<T>;
  /** The action handlers. Called by the bridge inside `runOnMain`. */
  readonly actions: HostActionHandlers;
  /** Records a completed upload as a pending attachment. Called inside `runOnMain`. */
  addAttachment(upload: CompletedUpload): HostAttachment;
  /** The file behind an attachment id, or undefined when there is none (deleted, unknown). */
  resolveMedia(attachmentId: string): MediaFile | undefined;
  /**
   * Validates a workspace URI from the browser: it must be an authorised root or below one,
   * normalised, with no traversal and no symlink escape. Returns the canonical `file:` URI,
   * or undefined when the browser may not use it (→ 403 `workspace_forbidden`).
   */
  authoriseWorkspace(uri: string): string | undefined;
  /** Language and strings for the public connection page. */
  locale(): Locale;
  /**
   * Optional: checks an action needs before it may run that take I/O the executor must not wait
   * for (resolving a push endpoint's name to refuse a private address). Called before the
   * action's executor task; return undefined when there is nothing to wait for, or a promise
   * that rejects with a `ProtocolError` to refuse the action (nothing is then applied).
   */
  checkAction?(action: Action, origin: ActionOrigin): Promise<void> | undefined;
  /**
   * Optional, for hosts that send Web Push: answers an approval with an approval token from a
   * push payload (POST /api/push/decide, no Bearer: the token is the credential). Called inside
   * `runOnMain`. Throws `not_found` for an unknown, spent or void token, `not_applicable` (with
   * what happened) when the approval was already answered. Without it the route answers 404.
   */
  decideWithToken?(token: string, decision: 'allow' | 'deny'): ActionResultOf<'approve'>;
}
