import { type ApiFetcher, initClient } from '@ts-rest/core';
import type {
  Action,
  ActionName,
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
import {
  ACCESS_HEADER,
  type AccessLevel,
  actionResultSchemas,
  contract,
  identityOf,
  localeSchema,
  parseJsonSafely,
  parseStateTag,
  snapshotSchema,
} from '@webbridge/contract';
import type { ZodTypeAny } from 'zod';
import { BridgeClientError } from './BridgeClientError';
import { createActionId } from './createActionId';
import { type Destination, destinationOf } from './destinationOf';
import { errorFromFailure, errorFromResponse } from './errorFromResponse';
import { type ConnectEventsOptions, connectEvents, type EventConnection } from './events/connectEvents';
import { createStore, type Store, type WritableStore } from './store';
import { type UploadOptions, type UploadTransport, uploadFile } from './uploadFile';
import { waitToRetry } from './waitToRetry';

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

/**
 * Creates the typed client of a bridge. Requests and answers are typed and validated from the
 * contract; errors are {@link BridgeClientError}s carrying the server's problem.
 *
 * @example
 * ```ts
 * const client = createBridgeClient({ baseUrl: location.origin, accessCode: code });
 * client.connect();
 * client.store.subscribe(({ snapshot, status }) => render(snapshot, status));
 * ```
 */
export function createBridgeClient(options: BridgeClientOptions): BridgeClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const store = options.store ?? createStore();
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retries = options.retries ?? Number.POSITIVE_INFINITY;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const pendingForMs = options.pendingForMs ?? 9 * 60_000;
  const nextActionId = options.createActionId ?? createActionId;
  let accessCode = options.accessCode;
  const authorization = () => `Bearer ${accessCode}`;
  let access: AccessLevel | undefined;

  // The wire is parsed here, not by ts-rest: prototype keys are dropped while parsing and a
  // failed request becomes a BridgeClientError instead of a bare TypeError.
  const api: ApiFetcher = async ({ path, method, headers, body, fetchOptions }) => {
    const init: RequestInit = { ...fetchOptions, method, headers };
    if (body !== undefined) init.body = body;
    const signal = fetchOptions?.signal ?? undefined;
    try {
      const response = await fetchFn(path, init);
      const level = response.headers.get(ACCESS_HEADER);
      if (level === 'control' || level === 'view') access = level;
      const text = await response.text();
      const type = response.headers.get('content-type') ?? '';
      return {
        status: response.status,
        body: type.includes('json') ? parseJson(text, response.status) : text,
        headers: response.headers,
      };
    } catch (error) {
      throw errorFromFailure(error, signal);
    }
  };
  const rest = initClient(contract, {
    baseUrl,
    baseHeaders: { authorization },
    api,
    validateResponse: false,
  });

  const fetchState = async (request: RequestOptions = {}): Promise<Snapshot> => {
    const response = await rest.state({ fetchOptions: fetchOptionsOf(request) });
    if (response.status !== 200) throw errorFromResponse(response.status, response.body, response.headers);
    const snapshot = validate(snapshotSchema, response.body, 200);
    // The event id the state is at: the stream then resumes from it rather than sending the
    // same state again (a second full snapshot when a page opens).
    const tag = parseStateTag(response.headers.get('etag'));
    store.replaceSnapshot(snapshot, tag?.instanceId === snapshot.instanceId ? tag.seq : undefined);
    return snapshot;
  };

  const postOnce = async <A extends Action>(body: A, request: RequestOptions) => {
    const response = await rest.action({
      body,
      // The contract declares it (the server answers 415 without it); fetch would set it
      // anyway for a JSON body, but the route's typed input asks for it.
      headers: { 'content-type': 'application/json' },
      fetchOptions: fetchOptionsOf(request),
    });
    if (response.status !== 200) throw errorFromResponse(response.status, response.body, response.headers);
    if (response.body.action !== body.action) {
      throw new BridgeClientError({
        code: 'bad_response',
        status: 200,
        detail: 'answer for another action',
      });
    }
    const schema: ZodTypeAny = actionResultSchemas[body.action as ActionName];
    return validate(schema, response.body.result, 200) as ActionResultOf<A['action']>;
  };

  const action = async <A extends Action>(input: A, request: RequestOptions = {}) => {
    const actionId = input.actionId ?? nextActionId();
    const body: A = input.actionId === undefined ? { ...input, actionId } : input;
    // The window for retries starts at the first send, not at its failure: the host remembers
    // an actionId for ACTION_ID_TTL_MS from when it first received it (never before the first
    // send), and a first POST can hang for minutes before it fails. Measured from its failure,
    // a late retry could reach a host that had forgotten the id and apply it twice.
    const firstSent = Date.now();
    let since: number | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await postOnce(body, request);
        } catch (error) {
          if (!(error instanceof BridgeClientError) || error.code !== 'network') throw error;
          since ??= firstSent;
          if (attempt >= retries || Date.now() - firstSent >= pendingForMs) throw error;
          store.putPending({ actionId, action: body, since, attempts: attempt + 1 });
          await waitToRetry(store, Math.min(30_000, retryDelayMs * 2 ** attempt), request.signal);
        }
      }
    } finally {
      if (since !== undefined) store.removePending(actionId);
    }
  };

  const sensitive: BridgeClient['sensitive'] = async (args, { to, ...request } = {}) => {
    // The identity the person confirmed, or else of what they see now; never one remembered
    // from an earlier call.
    const seen = to ?? store.getState().snapshot;
    if (seen === null) {
      throw new BridgeClientError({ code: 'no_state', status: 0, detail: 'no state yet: connect first' });
    }
    const body = { ...args, ...identityOf(seen) } as unknown as SensitiveAction;
    try {
      return { kind: 'done', result: await action(body, request) };
    } catch (error) {
      if (!(error instanceof BridgeClientError) || error.code !== 'session_mismatch') throw error;
      return { kind: 'session_changed', destination: await destinationAfter(error), error };
    }
  };

  const destinationAfter = async (error: BridgeClientError): Promise<Destination> => {
    let fresh: Snapshot | undefined;
    try {
      fresh = await fetchState();
    } catch {
      // The 409 body already says where a send would land; the title may then be unknown.
    }
    if (fresh !== undefined) return destinationOf(fresh);
    const identity = error.current;
    if (identity === undefined) throw error;
    return destinationOf({
      ...identity,
      conversations: { list: store.getState().snapshot?.conversations.list ?? [] },
    });
  };

  return {
    store,
    get access() {
      return access;
    },
    setAccessCode(code) {
      accessCode = code;
      access = undefined;
    },
    connect(connectOptions = {}) {
      return connectEvents({
        ...connectOptions,
        baseUrl,
        accessCode: () => accessCode,
        store,
        fetch: fetchFn,
      });
    },
    fetchState,
    async locale(request = {}) {
      const response = await rest.locale({ fetchOptions: fetchOptionsOf(request) });
      if (response.status !== 200) throw errorFromResponse(response.status, response.body, response.headers);
      return validate(localeSchema, response.body, 200);
    },
    action,
    sensitive,
    send: (text, attachmentIds, sendOptions) =>
      sensitive(
        attachmentIds === undefined ? { action: 'send', text } : { action: 'send', text, attachmentIds },
        sendOptions,
      ),
    stop: () => sensitive({ action: 'stop' }),
    continue: () => sensitive({ action: 'continue' }),
    editMessage: (messageId, text) => sensitive({ action: 'editMessage', messageId, text }),
    branch: (messageId, index) => sensitive({ action: 'branch', messageId, index }),
    regenerate: (messageId) =>
      sensitive(messageId === undefined ? { action: 'regenerate' } : { action: 'regenerate', messageId }),
    model: (modelId) => sensitive({ action: 'model', modelId }),
    workspace: (uri) => sensitive({ action: 'workspace', uri }),
    upload(file, name, uploadOptions = {}) {
      const { conversationId } = uploadOptions;
      const url =
        `${baseUrl}${contract.upload.path}?name=${encodeURIComponent(name)}` +
        (conversationId === undefined ? '' : `&conversationId=${encodeURIComponent(conversationId)}`);
      return uploadFile(
        {
          url,
          authorization: authorization(),
          file,
          fetch: options.fetch,
          transport: options.uploadTransport ?? 'auto',
        },
        uploadOptions,
      );
    },
    mediaUrl(media) {
      return `${baseUrl}${contract.media.path}?id=${encodeURIComponent(media.id)}`;
    },
  };
}

function fetchOptionsOf(request: RequestOptions): { signal?: AbortSignal } {
  return request.signal === undefined ? {} : { signal: request.signal };
}

function parseJson(text: string, status: number): unknown {
  try {
    return parseJsonSafely(text);
  } catch (cause) {
    throw new BridgeClientError({ code: 'bad_response', status, detail: 'invalid JSON' }, { cause });
  }
}

function validate<T>(
  schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } },
  data: unknown,
  status: number,
): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new BridgeClientError({ code: 'bad_response', status, detail: 'unexpected answer' });
  return parsed.data;
}
