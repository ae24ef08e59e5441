import {
  type Action,
  actionSchema,
  contract,
  DEFAULT_HEARTBEAT_MS,
  isPublicRoute,
  isSensitiveAction,
  PROTOCOL_VERSION,
  type Snapshot,
} from '@webbridge/contract';
import { createMockActions } from './mockActions';
import { createMockDevices } from './mockDevices';
import { createMockEventStream, mockSnapshotEvent } from './mockEventStream';
import { mockJson, mockProblem } from './mockProblem';
import { MockRefusal, mockMismatch } from './mockRefusal';
import { mockMedia } from './mockScenario';
import { createMockStore } from './mockStore';

/** Options of {@link createMockBackend}. */
export interface MockBackendOptions {
  /** Pause between echoed words. @default 60 */
  readonly wordDelayMs?: number;
  /** Idle time before a stream's heartbeat, named in its first event. @default DEFAULT_HEARTBEAT_MS (15000) */
  readonly heartbeatMs?: number;
}

/** An in-memory bridge that answers the contract's routes: what `pnpm dev:web` talks to. */
export interface MockBackend {
  /** Answers one request (any of the contract's routes). */
  handle(request: Request): Promise<Response>;
  /** The current state. */
  state(): Snapshot;
  /** Simulates the phone's user switching conversation (a host-side switch). */
  hostSwitch(conversationId?: string): void;
  /** Ends every event stream (a service restart, as the page sees it). */
  dropStreams(): void;
}

const authorised = (request: Request): Response | undefined => {
  const code = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (code === undefined || code === 'wrong')
    return mockProblem('unauthorized', 'The access code is not valid.');
  if (code === 'wait') {
    const response = mockProblem('rate_limited', 'Too many wrong access codes; wait before trying again.');
    response.headers.set('Retry-After', '5');
    return response;
  }
  return undefined;
};

/**
 * Creates the mock bridge. Any code works except `wrong` (401) and `wait` (429, 5 s). Sent
 * text is echoed word by word as deltas; `/tool name {json}` asks for an approval; `/switch`
 * makes the next send meet a host that has moved to another conversation (409).
 */
export function createMockBackend(options: MockBackendOptions = {}): MockBackend {
  const wordDelay = options.wordDelayMs ?? 60;
  const events = createMockEventStream(options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  const store = createMockStore((event) => events.write(event));
  const actions = createMockActions(store, wordDelay);
  const state = store.state;
  const devices = createMockDevices();

  const routes: Record<string, (request: Request, url: URL) => Promise<Response> | Response> = {
    [`GET ${contract.locale.path}`]: () =>
      mockJson({ language: 'en', strings: { title: 'webbridge (mock)' }, protocol: PROTOCOL_VERSION }),
    [`GET ${contract.state.path}`]: () => mockJson(state()),
    [`POST ${contract.action.path}`]: async (request) => {
      const parsed = actionSchema.safeParse(await request.json().catch(() => undefined));
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path, message: i.message }));
        return mockProblem('invalid_request', 'The request does not match the protocol.', { issues });
      }
      const action = parsed.data;
      if (isSensitiveAction(action)) {
        const s = state();
        if (
          action.sessionRevision !== s.sessionRevision ||
          action.conversationId !== s.conversationId ||
          action.projectId !== s.projectId
        )
          return mockMismatch(store);
      }
      try {
        const run = actions[action.action] as (a: Action) => unknown;
        return mockJson({ action: action.action, result: run(action) });
      } catch (error) {
        if (error instanceof MockRefusal) return error.response;
        throw error;
      }
    },
    [`GET ${contract.events.path}`]: (request, url) =>
      events.open(request, url, mockSnapshotEvent(store.sync())),
    [`POST ${contract.upload.path}`]: async (request, url) => {
      const name = url.searchParams.get('name');
      if (!name) return mockProblem('invalid_request', 'The upload needs a name.');
      // The mock keeps pending files for the current conversation only: a file meant for
      // another one is refused rather than shown in the wrong place.
      const target = url.searchParams.get('conversationId');
      if (target !== null && target !== state().conversationId) {
        return mockProblem('not_found', 'The mock keeps uploads for the current conversation only.');
      }
      const blob = new Blob([await request.arrayBuffer()], {
        type: request.headers.get('content-type') ?? '',
      });
      const id = store.nextId('a');
      store.files.set(id, blob);
      const attachment = { id, name, type: blob.type || 'application/octet-stream', size: blob.size };
      store.delta({ pending: [...state().conversations.pending, { ...attachment, media: mockMedia(id) }] });
      return mockJson({ attachment }, 201);
    },
    [`GET ${contract.media.path}`]: (_request, url) => {
      const id = /^media-(.+)-x{22}$/.exec(url.searchParams.get('id') ?? '')?.[1];
      const file = id === undefined ? undefined : store.files.get(id);
      if (!file) return mockProblem('not_found', 'Not found.');
      return new Response(file, { headers: { 'Content-Type': file.type } });
    },
    [`POST ${contract.pair.path}`]: (request) => devices.pair(request),
    [`GET ${contract.devices.path}`]: (request) => devices.list(request),
    [`POST ${contract.forgetDevice.path}`]: (request) => devices.forget(request),
  };
  const publicPaths = new Set<string>(
    Object.values(contract)
      .filter((route) => isPublicRoute(route))
      .map((route) => route.path),
  );

  return {
    state,
    hostSwitch: (id) => store.hostSwitch(id),
    dropStreams: () => events.drop(),
    async handle(request) {
      const url = new URL(request.url);
      const route = routes[`${request.method} ${url.pathname}`];
      if (!route) return mockProblem('not_found', 'No such route.');
      const refused = publicPaths.has(url.pathname) ? undefined : authorised(request);
      return refused ?? route(request, url);
    },
  };
}
