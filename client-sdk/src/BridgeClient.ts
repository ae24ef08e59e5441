import type {
  AccessLevel,
  Action,
  ActionOf,
  ActionResultOf,
  HostAttachment,
  Locale,
  MediaRef,
  SensitiveAction,
  SessionGuard,
  SessionIdentity,
  Snapshot,
} from '@webbridge/contract';
import type { BridgeClientError } from './BridgeClientError';
import type { Destination } from './destinationOf';
import type { ConnectEventsOptions, EventConnection } from './events/ConnectEventsOptions';
import type { Store, WritableStore } from './store';
import type { UploadOptions, UploadTransport } from './uploadFile';

/** Options of {@link createBridgeClient}. */
export interface BridgeClientOptions {
  /** Origin (and optional path prefix) of the bridge, e.g. `http://192.168.1.20:7878`. */
  readonly baseUrl: string;
  /** The access code shown by the host. */
  readonly accessCode: string;
  /**
   * Every request but uploads goes through it; uploads too when `uploadTransport` is `fetch`
   * or where XMLHttpRequest does not exist.
   * @default globalThis.fetch
   */
  readonly fetch?: typeof fetch;
  /**
   * How {@link BridgeClient.upload} sends files. `auto` keeps XMLHttpRequest's upload progress
   * in browsers even when a custom `fetch` is given.
   * @default 'auto'
   */
  readonly uploadTransport?: UploadTransport;
  /** The store to keep current. @default a new {@link createStore} */
  readonly store?: WritableStore;
  /**
   * How many times an action is sent again, with the same `actionId`, after a network failure
   * (no answer at all; a refusal is never retried). Meanwhile the action is in the store's
   * `pendingActions`, and it is sent again after a backoff, or at once when the event stream
   * comes back. The host applies an id once while it remembers it (10 minutes, same run), so a
   * retry never doubles an action.
   * @default Infinity (until `pendingForMs` passes)
   */
  readonly retries?: number;
  /** The first backoff; it doubles with every retry, up to 30 s. @default 500 */
  readonly retryDelayMs?: number;
  /**
   * How long an action that cannot reach the host stays pending before it fails with a
   * `network` error: within the host's memory of action ids (10 minutes), so that a retry can
   * never apply it twice.
   * @default 540000 (9 minutes)
   */
  readonly pendingForMs?: number;
  /** @default {@link createActionId} (crypto.randomUUID, or getRandomValues outside secure contexts) */
  readonly createActionId?: () => string;
}

/** The names of the session-sensitive actions. */
export type SensitiveActionName = SensitiveAction['action'];

/** A sensitive action without its identity fields: the client adds them from the store. */
export type SensitiveArgs<N extends SensitiveActionName> = Omit<ActionOf<N>, keyof SessionGuard | 'actionId'>;

/**
 * The outcome of a session-sensitive action. `session_changed` (409) means nothing happened:
 * the store now shows the fresh state, and `destination` is where the action would land now,
 * with its identity. The UI must ask the person before anything is sent again, and confirming
 * sends with that destination (`{ to: destination }`), so that a host that has moved once more
 * refuses it again instead of the action landing somewhere the person was not shown. Other
 * failures throw {@link BridgeClientError}.
 */
export type SensitiveOutcome<N extends SensitiveActionName> =
  | { readonly kind: 'done'; readonly result: ActionResultOf<N> }
  | {
      readonly kind: 'session_changed';
      readonly destination: Destination;
      readonly error: BridgeClientError;
    };

/** Options of one request. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
}

/** Options of a session-sensitive action. */
export interface SensitiveOptions extends RequestOptions {
  /**
   * The identity to act with instead of the state in the store: the destination the person
   * confirmed (after a 409, `outcome.destination` or whatever the UI named since). The action
   * is bound to it: if the host is no longer there it is refused again (`session_changed`
   * naming the new place) and lands nowhere. Only its identity fields are sent.
   * @default the identity of the state in the store
   */
  readonly to?: SessionIdentity;
}

/** The typed client of one bridge. Create it with {@link createBridgeClient}. */
export interface BridgeClient {
  /** The state the user is looking at and the connection status. */
  readonly store: Store;
  /**
   * What the code allows, as the server last said (`X-Webbridge-Access`): `control`, or
   * `view` for a view code (state, events and media only; actions answer 403 `view_only`).
   * Undefined until a protected request (e.g. {@link BridgeClient.fetchState}) was answered.
   */
  readonly access: AccessLevel | undefined;
  /** Replaces the access code (after the host rotated it). Open connections keep the old one. */
  setAccessCode(code: string): void;
  /** Subscribes to the event stream and keeps {@link BridgeClient.store} current. */
  connect(
    options?: Pick<ConnectEventsOptions, 'heartbeatMs' | 'backoff' | 'onError' | 'wake' | 'online'>,
  ): EventConnection;
  /** GET /api/state; the store shows the answer. */
  fetchState(options?: RequestOptions): Promise<Snapshot>;
  /** GET /api/locale (public). */
  locale(options?: RequestOptions): Promise<Locale>;
  /**
   * POSTs one action and returns its typed result, or throws {@link BridgeClientError}. An
   * `actionId` is added when absent. When the host cannot be reached (a network error, not a
   * refusal) the action waits in the store's `pendingActions` and is sent again with the same
   * id (after a backoff, or as soon as the event stream is live again) until the host answers,
   * so it is never lost and the host applies it at most once.
   */
  action<A extends Action>(action: A, options?: RequestOptions): Promise<ActionResultOf<A['action']>>;
  /**
   * Any session-sensitive action, with the identity of the state in the store (or of
   * `options.to`).
   * @example
   * ```ts
   * await client.sensitive({ action: 'branch', messageId, index: 1 });
   * ```
   */
  sensitive<N extends SensitiveActionName>(
    args: SensitiveArgs<N> & { action: N },
    options?: SensitiveOptions,
  ): Promise<SensitiveOutcome<N>>;
  /**
   * Sends a message into the conversation the user is looking at (or into `options.to`, a
   * destination the person confirmed); never re-sent elsewhere.
   * @example
   * ```ts
   * let outcome = await client.send('Hello');
   * while (outcome.kind === 'session_changed' && (await ask(outcome.destination.title))) {
   *   outcome = await client.send('Hello', [], { to: outcome.destination });
   * }
   * ```
   */
  send(text: string, attachmentIds?: string[], options?: SensitiveOptions): Promise<SensitiveOutcome<'send'>>;
  stop(): Promise<SensitiveOutcome<'stop'>>;
  continue(): Promise<SensitiveOutcome<'continue'>>;
  editMessage(messageId: string, text: string): Promise<SensitiveOutcome<'editMessage'>>;
  branch(messageId: string, index: number): Promise<SensitiveOutcome<'branch'>>;
  regenerate(messageId?: string): Promise<SensitiveOutcome<'regenerate'>>;
  model(modelId: string): Promise<SensitiveOutcome<'model'>>;
  workspace(uri: string): Promise<SensitiveOutcome<'workspace'>>;
  /** Switches the current agent session's mode (`agents.session.modes.list`). */
  agentMode(modeId: string): Promise<SensitiveOutcome<'agentMode'>>;
  /** Sets one of the current agent session's settings (`agents.session.configOptions`). */
  agentOption(optionId: string, value: string | boolean): Promise<SensitiveOutcome<'agentOption'>>;
  /** The sessions an agent lists, e.g. ones started in its own terminal at the desk. */
  agentSessions(agentId: string, options?: RequestOptions): Promise<ActionResultOf<'agentSessions'>>;
  /**
   * Opens a session an agent listed as a conversation (of `projectId`, else the project its
   * folder belongs to) and makes it current; its history shows as messages.
   * @example
   * ```ts
   * const { sessions } = await client.agentSessions('opencode');
   * await client.openAgentSession('opencode', sessions[0].sessionId);
   * ```
   */
  openAgentSession(
    agentId: string,
    sessionId: string,
    projectId?: string,
  ): Promise<ActionResultOf<'openAgentSession'>>;
  /**
   * Uploads one file as a pending attachment (raw body, `Content-Type` = the file's type), of
   * `options.conversationId` (pass the conversation the person sees, so the file stays there
   * even if the host moves on while it uploads) or else of the current conversation.
   * @example
   * ```ts
   * const attachment = await client.upload(file, file.name, {
   *   conversationId: store.getState().snapshot.conversationId,
   *   onProgress: (l, t) => bar(l / t),
   * });
   * ```
   */
  upload(file: Blob, name: string, options?: UploadOptions): Promise<HostAttachment>;
  /** The URL that reads an attachment through its media id (no Bearer needed). */
  mediaUrl(media: MediaRef): string;
}
