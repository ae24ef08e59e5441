import { initClient } from '@ts-rest/core';
import type { Action, ActionName, ActionResultOf, SensitiveAction, Snapshot } from '@webbridge/contract';
import {
  type AccessLevel,
  actionResultSchemas,
  contract,
  fastParser,
  identityOf,
  localeSchema,
  parseStateTag,
  snapshotSchema,
} from '@webbridge/contract';
import type { ZodTypeAny } from 'zod';
import type { BridgeClient, BridgeClientOptions, RequestOptions } from './BridgeClient';
import { BridgeClientError } from './BridgeClientError';
import { createActionId } from './createActionId';
import { type Destination, destinationOf } from './destinationOf';
import { errorFromResponse } from './errorFromResponse';
import { connectEvents } from './events/connectEvents';
import { restFetcher } from './restFetcher';
import { type RetryPolicy, retryPending } from './retryPending';
import { createStore } from './store';
import { uploadFile } from './uploadFile';

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
  const policy: RetryPolicy = {
    retries: options.retries ?? Number.POSITIVE_INFINITY,
    retryDelayMs: options.retryDelayMs ?? 500,
    pendingForMs: options.pendingForMs ?? 9 * 60_000,
  };
  const nextActionId = options.createActionId ?? createActionId;
  let accessCode = options.accessCode;
  const authorization = () => `Bearer ${accessCode}`;
  let access: AccessLevel | undefined;

  const api = restFetcher(fetchFn, (level) => {
    access = level;
  });
  const rest = initClient(contract, {
    baseUrl,
    baseHeaders: { authorization },
    api,
    validateResponse: false,
  });

  const fetchState = async (request: RequestOptions = {}): Promise<Snapshot> => {
    const response = await rest.state({ fetchOptions: fetchOptionsOf(request) });
    if (response.status !== 200) throw errorFromResponse(response.status, response.body, response.headers);
    const snapshot = validate(snapshotCheck, response.body, 200);
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
    const body = (input.actionId === undefined ? { ...input, actionId } : input) as A & { actionId: string };
    return retryPending(store, body, () => postOnce(body, request), policy, request.signal);
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
    agentMode: (modeId) => sensitive({ action: 'agentMode', modeId }),
    agentOption: (optionId, value) => sensitive({ action: 'agentOption', optionId, value }),
    agentSessions: (agentId, request) => action({ action: 'agentSessions', agentId }, request),
    openAgentSession: (agentId, sessionId, projectId) =>
      action(
        projectId === undefined
          ? { action: 'openAgentSession', agentId, sessionId }
          : { action: 'openAgentSession', agentId, sessionId, projectId },
      ),
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

/**
 * The state's check, with the schema-derived fast test first (contract's fastAccept.ts): a long
 * conversation's state is accepted without zod's walk; any state it does not take is zod's to
 * parse, as before.
 */
const snapshotCheck = { safeParse: fastParser(snapshotSchema) };

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
