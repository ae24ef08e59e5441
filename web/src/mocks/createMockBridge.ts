import { CONNECTION_STRINGS, type HostMessage, PROTOCOL_VERSION, type Projection } from '@webbridge/contract';
import {
  chatOnlyActions,
  createBridgeCore,
  createSerialQueue,
  EchoReplies,
  type HostAdapter,
  MemoryConversations,
  MemoryFiles,
} from '@webbridge/server';
import { mockScenario } from './mockScenario';
import { APPROVE, scriptedActions } from './scriptedActions';
import { scriptedBranches } from './scriptedBranches';

/** Options of {@link createMockBridge}. */
export interface MockBridgeOptions {
  /** The access code the page must enter. @default 'mock' */
  readonly accessCode?: string;
  /** Pause before each echoed word. @default 60 */
  readonly wordDelayMs?: number;
  /** Idle time before a stream's heartbeat. @default the bridge's (15 s) */
  readonly heartbeatMs?: number;
}

/** The real bridge over an in-memory host, for `pnpm dev:web` and the web client's unit tests. */
export interface MockBridge {
  /** Answers one request to the API, as the bridge does (the Host is made the bridge's own). */
  fetch(request: Request): Promise<Response>;
  /** The host's current projection. */
  state(): Projection;
  /**
   * The phone's own user moves to `conversationId`, or to any other conversation: a host-side
   * switch. It runs at once (tasks on the host's queue never await, so none is half done).
   */
  hostSwitch(conversationId?: string): void;
  /** Closes the bridge's streams and drops the streaming reply. */
  close(): Promise<void>;
}

/** The one name the bridge answers to: every request is made its own (see `fetch`). */
const OWN_HOSTS: ReadonlySet<string> = new Set(['localhost']);

/** The host's answer to a send: the echo, plus the scenario's `/switch` (see {@link createMockBridge}). */
const SWITCH = '/switch';

/**
 * `createBridge` over the embedding's in-memory host (MemoryConversations, chatOnlyActions,
 * EchoReplies on a serial queue), seeded with the scenario's conversations (mockScenario.ts):
 * every route, guard, 409, frame and refusal is the bridge's own, and every action is the
 * embedding's handler, or a script of the mocks beside it (approvals and push in
 * scriptedActions.ts, branches, edits and regenerate in scriptedBranches.ts). Only the scenario
 * is written here: its data, and `/switch`, after which the next send meets a host that has
 * just moved to another conversation (a 409).
 */
export function createMockBridge(options: MockBridgeOptions = {}): MockBridge {
  const scenario = mockScenario();
  const [welcome, ...others] = scenario.conversations.list;
  const model = scenario.models.list[0] ?? { id: 'echo', name: 'Echo', provider: 'mock' };
  const conversations = new MemoryConversations({ model, ...(welcome ? { title: welcome.title } : {}) });
  const { store } = conversations;
  const runOnMain = createSerialQueue();
  const replies = new EchoReplies(conversations, runOnMain, options.wordDelayMs ?? 60);
  const first = store.readState().conversationId;
  for (const other of others)
    conversations.actions.newConversation({ action: 'newConversation', title: other.title });
  conversations.actions.selectConversation({ action: 'selectConversation', conversationId: first });
  // The scenario's messages carry no attachments, so they are host messages as they are.
  conversations.setMessages(first, scenario.conversations.messages as HostMessage[], null);
  store.publish({ ...store.readState(), tools: scenario.tools, settings: scenario.settings });

  const scripted = scriptedActions(conversations);
  const host = {
    readState: store.readState,
    subscribe: store.subscribe,
    runOnMain,
    actions: {
      ...chatOnlyActions(store),
      ...conversations.actions,
      ...replies.actions,
      ...scripted.actions,
      ...scriptedBranches(conversations, replies),
      // `/approve` makes the scripted model ask for a tool call; any other text is echoed.
      send: (action) =>
        action.text.trim() === APPROVE ? scripted.askApproval(action.text) : replies.actions.send(action),
    },
    addAttachment: conversations.addAttachment,
    resolveMedia: conversations.resolveMedia,
    authoriseWorkspace: () => undefined,
    locale: () => ({ language: 'en', strings: CONNECTION_STRINGS, protocol: PROTOCOL_VERSION }),
  } satisfies HostAdapter;
  const files = new MemoryFiles();
  // The bridge's web-standard core alone: no listener, no disk, so it runs in a page as in Node.
  const bridge = createBridgeCore({
    host,
    accessCode: options.accessCode ?? 'mock',
    files,
    allowedHosts: () => OWN_HOSTS,
    logLevel: 'silent',
    // A destination of its own: pino's page build has no file descriptors to write to.
    logDestination: { write: () => undefined },
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
  });

  const hostSwitch = (conversationId?: string) => {
    const { list } = store.readState().conversations;
    const target = conversationId ?? list.find((c) => c.id !== store.readState().conversationId)?.id;
    if (target)
      conversations.actions.selectConversation({ action: 'selectConversation', conversationId: target });
  };
  let switchAtNextSend = false;

  return {
    async fetch(request) {
      const url = new URL(request.url);
      const body =
        request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const send = body && url.pathname === '/api/action' ? sentText(body) : undefined;
      if (send !== undefined && switchAtNextSend) {
        switchAtNextSend = false;
        hostSwitch();
      } else if (send?.trim() === SWITCH) switchAtNextSend = true;
      // The bridge answers only to its own names (DNS rebinding): the request is made its own.
      // What a network would add is added here: Host and, for a body, Content-Length. A page's
      // Request refuses both (forbidden header names), so the bridge reads this free-standing
      // Headers in place of the Request's own.
      const headers = new Headers(request.headers);
      headers.set('host', 'localhost');
      if (body !== undefined && !headers.has('content-length'))
        headers.set('content-length', String(body.byteLength));
      const init: RequestInit = { method: request.method, headers, signal: request.signal };
      if (body !== undefined) init.body = body;
      const forwarded = new Request(`http://localhost${url.pathname}${url.search}`, init);
      Object.defineProperty(forwarded, 'headers', { value: headers });
      return bridge.app.fetch(forwarded);
    },
    state: store.readState,
    hostSwitch,
    async close() {
      replies.close();
      bridge.dispose();
    },
  };
}

/** The text of a `send` action body, or undefined for anything else. */
function sentText(body: ArrayBuffer): string | undefined {
  try {
    const action = JSON.parse(new TextDecoder().decode(body)) as { action?: unknown; text?: unknown };
    return action.action === 'send' && typeof action.text === 'string' ? action.text : undefined;
  } catch {
    return undefined;
  }
}
