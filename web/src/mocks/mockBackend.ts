import { applyEvent, type SyncState } from '@webbridge/client-sdk';
import {
  type Action,
  type ActionOf,
  type ActionResultOf,
  actionSchema,
  contract,
  type DeltaEvent,
  isSensitiveAction,
  type Message,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type Snapshot,
  STATE_EVENT,
} from '@webbridge/contract';
import { mockJson, mockProblem } from './mockProblem';
import { mockMedia, mockScenario } from './mockScenario';

/** Options of {@link createMockBackend}. */
export interface MockBackendOptions {
  /** Pause between echoed words. @default 60 */
  readonly wordDelayMs?: number;
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

class Refused extends Error {
  constructor(readonly response: Response) {
    super('refused');
  }
}

/**
 * Creates the mock bridge. Any code works except `wrong` (401) and `wait` (429, 5 s). Sent
 * text is echoed word by word as deltas; `/tool name {json}` asks for an approval; `/switch`
 * makes the next send meet a host that has moved to another conversation (409).
 */
export function createMockBackend(options: MockBackendOptions = {}): MockBackend {
  const wordDelay = options.wordDelayMs ?? 60;
  let sync: SyncState = { seq: 1, signature: 'mock-1', snapshot: mockScenario() };
  const histories = new Map<string, Message[]>([
    [sync.snapshot.conversationId, sync.snapshot.conversations.messages],
  ]);
  const forks = new Map<string, Message[][]>();
  const files = new Map<string, Blob>();
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  let ids = 100;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let switchOnNextSend = false;
  const nextId = (prefix: string) => `${prefix}${++ids}`;
  const state = () => sync.snapshot;

  const write = (frame: string) => {
    for (const stream of streams) {
      try {
        stream.enqueue(encoder.encode(frame));
      } catch {
        streams.delete(stream);
      }
    }
  };
  const snapshotFrame = () =>
    `event:${STATE_EVENT}\nid:${sync.seq}\ndata:${JSON.stringify({ kind: 'snapshot', seq: sync.seq, signature: sync.signature, snapshot: sync.snapshot })}\n\n`;

  /** Replaces the configuration (anything but messages/run/approvals/pending): a snapshot. */
  const reconfigure = (next: Snapshot) => {
    histories.set(next.conversationId, next.conversations.messages);
    sync = { seq: sync.seq + 1, signature: `mock-${sync.seq + 1}`, snapshot: next };
    write(snapshotFrame());
  };
  /** Sends a delta and applies it to our own state with the SDK's reducer. */
  const delta = (fields: Omit<DeltaEvent, 'kind' | 'seq' | 'base'>) => {
    const event: DeltaEvent = { kind: 'delta', seq: sync.seq + 1, base: sync.seq, ...fields };
    const result = applyEvent(sync, event);
    if (result.kind !== 'applied') throw new Error(`mock delta refused: ${result.reason}`);
    sync = result.state;
    histories.set(sync.snapshot.conversationId, sync.snapshot.conversations.messages);
    write(`event:${STATE_EVENT}\nid:${sync.seq}\ndata:${JSON.stringify(event)}\n\n`);
  };
  const messages = () => state().conversations.messages;
  const last = () => messages().at(-1);
  const message = (
    role: Message['role'],
    text: string,
    status: Message['status'],
    extra: Partial<Message> = {},
  ): Message => ({
    id: nextId('m'),
    parentId: last()?.id ?? null,
    role,
    text,
    status,
    createdAt: Date.now(),
    attachments: [],
    sibling: { index: 0, count: 1 },
    ...extra,
  });

  const stream = (reply: Message, target: string) => {
    clearTimeout(timer);
    const tool = /^\/tool\s+(\S+)\s*([\s\S]*)$/.exec(target.trim());
    if (tool && reply.text === '') {
      timer = setTimeout(() => {
        const approvalId = nextId('apr');
        const args = tool[2]?.trim() || '{}';
        const name = tool[1] ?? 'tool';
        delta({
          put: [{ ...reply, status: 'waiting', tool: { name, args, approvalId } }],
          approvals: [
            ...state().approvals,
            {
              id: approvalId,
              tool: name,
              summary: `${name} ${args}`,
              args,
              conversationId: state().conversationId,
              messageId: reply.id,
              createdAt: Date.now(),
            },
          ],
          run: { state: 'waiting_approval', messageId: reply.id },
        });
      }, wordDelay * 3);
      return;
    }
    const words = target.slice(reply.text.length).match(/\S+\s*|\s+/g) ?? [];
    const step = () => {
      const current = messages().find((m) => m.id === reply.id);
      if (!current) return;
      const word = words.shift();
      if (word === undefined) {
        delta({ put: [{ ...current, status: 'complete' }], run: { state: 'idle', messageId: null } });
        return;
      }
      delta({ ap: [[reply.id, current.text.length, word]] });
      timer = setTimeout(step, wordDelay);
    };
    timer = setTimeout(step, wordDelay);
  };

  const replyTo = (user: Message) => {
    const reply = message('assistant', '', 'streaming', { parentId: user.id, model: state().models.current });
    return reply;
  };
  const echoOf = (user: Message) =>
    user.text.trim() === '/switch'
      ? 'OK: your next send will find the host in another conversation.'
      : user.text || `Received ${user.attachments.map((a) => a.name).join(', ')}`;

  /** Replaces the tail from index `at` with `tail`, remembering the old one as a sibling. */
  const fork = (at: number, tail: Message[]) => {
    const key = `${state().conversationId}:${at}`;
    const tails = forks.get(key) ?? [messages().slice(at)];
    tails.push(tail);
    forks.set(key, tails);
    const heads = tails.map((t, index) =>
      t[0] ? { ...t[0], sibling: { index, count: tails.length } } : undefined,
    );
    tails.forEach((t, i) => {
      const head = heads[i];
      if (head) t[0] = head;
    });
    return tails[tails.length - 1] ?? tail;
  };

  const actions: { [N in Action['action']]: (a: ActionOf<N>) => ActionResultOf<N> } = {
    send(a) {
      if (switchOnNextSend) {
        switchOnNextSend = false;
        hostSwitch();
        throw new Refused(mismatch());
      }
      assertIdle();
      const chosen = state().conversations.pending.filter(
        (p) => a.attachmentIds === undefined || a.attachmentIds.includes(p.id),
      );
      if (a.text.trim() === '' && chosen.length === 0)
        throw new Refused(mockProblem('not_applicable', 'There is nothing to send.'));
      if (a.text.trim() === '/switch') switchOnNextSend = true;
      const user = message('user', a.text, 'complete', { attachments: chosen });
      const reply = replyTo(user);
      const rest = state().conversations.pending.filter((p) => !chosen.includes(p));
      delta({ add: [user, reply], run: { state: 'streaming', messageId: reply.id }, pending: rest });
      stream(reply, echoOf(user));
      return { conversationId: state().conversationId, messageId: user.id, replyId: reply.id };
    },
    stop() {
      clearTimeout(timer);
      const run = state().conversations.run;
      const current = messages().find((m) => m.id === run.messageId);
      if (!current) return { stopped: false };
      delta({
        put: [{ ...current, status: 'stopped' }],
        run: { state: 'idle', messageId: null },
        approvals: state().approvals.filter((p) => p.messageId !== current.id),
      });
      return { stopped: true };
    },
    continue() {
      assertIdle();
      const reply = last();
      const user = messages().findLast((m) => m.role === 'user');
      if (reply?.role !== 'assistant' || reply.status !== 'stopped' || !user)
        throw new Refused(mockProblem('not_applicable', 'The last reply is not stopped.'));
      delta({ put: [{ ...reply, status: 'streaming' }], run: { state: 'streaming', messageId: reply.id } });
      stream(reply, echoOf(user));
      return { messageId: reply.id };
    },
    workspace(a) {
      const project = state().projects.list.find((p) => p.id === state().projectId);
      if (!a.uri.startsWith('file:///home/me/work'))
        throw new Refused(mockProblem('workspace_forbidden', 'That folder is not authorised.'));
      const name = a.uri.split('/').filter(Boolean).at(-1) ?? 'work';
      reconfigure({
        ...state(),
        sessionRevision: state().sessionRevision + 1,
        projects: {
          ...state().projects,
          list: state().projects.list.map((p) =>
            p === project ? { ...p, workspace: { uri: a.uri, name } } : p,
          ),
        },
      });
      return { projectId: state().projectId, uri: a.uri };
    },
    model(a) {
      reconfigure({ ...state(), models: { ...state().models, current: a.modelId } });
      return { modelId: a.modelId };
    },
    branch(a) {
      assertIdle();
      const at = messages().findIndex((m) => m.id === a.messageId);
      const tails = forks.get(`${state().conversationId}:${at}`);
      const target = tails?.[a.index];
      if (!tails || !target) throw new Refused(mockProblem('not_applicable', 'No such version.'));
      const shown = messages()[at]?.sibling.index ?? 0;
      tails[shown] = messages().slice(at);
      reconfigure({
        ...state(),
        sessionRevision: state().sessionRevision + 1,
        conversations: { ...state().conversations, messages: [...messages().slice(0, at), ...target] },
      });
      return { messageId: target[0]?.id ?? a.messageId };
    },
    editMessage(a) {
      assertIdle();
      const at = messages().findIndex((m) => m.id === a.messageId);
      const original = messages()[at];
      if (original?.role !== 'user')
        throw new Refused(mockProblem('not_applicable', 'Only user messages can be edited.'));
      const user: Message = { ...original, id: nextId('m'), text: a.text, createdAt: Date.now() };
      const reply = replyTo(user);
      const tail = fork(at, [user, reply]);
      reconfigure({
        ...state(),
        sessionRevision: state().sessionRevision + 1,
        conversations: {
          ...state().conversations,
          messages: [...messages().slice(0, at), ...tail],
          run: { state: 'streaming', messageId: reply.id },
        },
      });
      stream(reply, echoOf(user));
      return { messageId: user.id, replyId: reply.id };
    },
    regenerate(a) {
      assertIdle();
      const at =
        a.messageId === undefined
          ? messages().findLastIndex((m) => m.role === 'assistant')
          : messages().findIndex((m) => m.id === a.messageId);
      const target = messages()[at];
      const user = messages()[at - 1];
      if (target?.role !== 'assistant' || !user)
        throw new Refused(mockProblem('not_applicable', 'Nothing to regenerate.'));
      const reply = { ...replyTo(user), parentId: user.id };
      const tail = fork(at, [reply]);
      reconfigure({
        ...state(),
        sessionRevision: state().sessionRevision + 1,
        conversations: {
          ...state().conversations,
          messages: [...messages().slice(0, at), ...tail],
          run: { state: 'streaming', messageId: reply.id },
        },
      });
      stream(tail[0] ?? reply, echoOf(user));
      return { replyId: reply.id };
    },
    newConversation(a) {
      const id = nextId('c');
      const entry = {
        id,
        title: a.title ?? '',
        projectId: a.projectId ?? state().projectId,
        createdAt: Date.now(),
      };
      moveTo(id, [...state().conversations.list, entry]);
      return { conversationId: id };
    },
    selectConversation(a) {
      if (!state().conversations.list.some((c) => c.id === a.conversationId))
        throw new Refused(mockProblem('not_found', 'No such conversation.'));
      if (a.conversationId !== state().conversationId) moveTo(a.conversationId, state().conversations.list);
      return { conversationId: a.conversationId };
    },
    renameConversation(a) {
      const list = state().conversations.list.map((c) =>
        c.id === a.conversationId ? { ...c, title: a.title } : c,
      );
      reconfigure({ ...state(), conversations: { ...state().conversations, list } });
      return { conversationId: a.conversationId };
    },
    deleteConversation(a) {
      const list = state().conversations.list.filter((c) => c.id !== a.conversationId);
      histories.delete(a.conversationId);
      if (a.conversationId === state().conversationId) {
        const next = list[0] ?? {
          id: nextId('c'),
          title: '',
          projectId: state().projectId,
          createdAt: Date.now(),
        };
        moveTo(next.id, list.length === 0 ? [next] : list);
      } else reconfigure({ ...state(), conversations: { ...state().conversations, list } });
      return { conversationId: a.conversationId };
    },
    selectProject(a) {
      return { projectId: a.projectId };
    },
    approve(a) {
      const approval = state().approvals.find((p) => p.id === a.approvalId);
      if (!approval)
        throw new Refused(mockProblem('not_applicable', 'That approval has already been decided.'));
      const call = messages().find((m) => m.id === approval.messageId);
      const result = message(
        'tool',
        a.decision === 'allow'
          ? `Done: ${approval.summary}`
          : `Denied: the user did not allow ${approval.tool}.`,
        'complete',
        { parentId: approval.messageId },
      );
      delta({
        ...(call ? { put: [{ ...call, status: 'complete' as const }] } : {}),
        add: [result],
        approvals: state().approvals.filter((p) => p.id !== a.approvalId),
        run: { state: 'idle', messageId: null },
      });
      return { approvalId: a.approvalId, decision: a.decision };
    },
    updateSettings(a) {
      const settings = { ...state().settings };
      const update = a.settings;
      if (update.theme !== undefined) settings.theme = update.theme;
      if (update.autoApprove !== undefined) settings.autoApprove = update.autoApprove;
      if (update.allowCommands !== undefined) settings.allowCommands = update.allowCommands;
      if (update.systemPrompt !== undefined) settings.systemPrompt = update.systemPrompt;
      reconfigure({ ...state(), settings });
      return { settings };
    },
    removeAttachment(a) {
      delta({ pending: state().conversations.pending.filter((p) => p.id !== a.attachmentId) });
      return { attachmentId: a.attachmentId };
    },
    refreshMedia(a) {
      if (!files.has(a.attachmentId)) throw new Refused(mockProblem('not_found', 'No such attachment.'));
      return { attachmentId: a.attachmentId, media: mockMedia(a.attachmentId) };
    },
  };

  function assertIdle() {
    if (state().conversations.run.state !== 'idle')
      throw new Refused(mockProblem('not_applicable', 'A reply is still running.'));
  }
  function mismatch(): Response {
    const { instanceId, sessionRevision, conversationId, projectId } = state();
    return mockProblem(
      'session_mismatch',
      'The session changed since this action was made; nothing was done.',
      {
        current: { instanceId, sessionRevision, conversationId, projectId },
      },
    );
  }
  function moveTo(conversationId: string, list: Snapshot['conversations']['list']) {
    clearTimeout(timer);
    reconfigure({
      ...state(),
      conversationId,
      sessionRevision: state().sessionRevision + 1,
      conversations: {
        list,
        messages: histories.get(conversationId) ?? [],
        pending: [],
        run: { state: 'idle', messageId: null },
      },
    });
  }
  function hostSwitch(conversationId?: string) {
    const target =
      conversationId ?? state().conversations.list.find((c) => c.id !== state().conversationId)?.id;
    if (target) moveTo(target, state().conversations.list);
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
          return mismatch();
      }
      try {
        const run = actions[action.action] as (a: Action) => unknown;
        return mockJson({ action: action.action, result: run(action) });
      } catch (error) {
        if (error instanceof Refused) return error.response;
        throw error;
      }
    },
    [`GET ${contract.events.path}`]: (request) => {
      let own: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          own = controller;
          streams.add(controller);
          controller.enqueue(encoder.encode(snapshotFrame()));
        },
        cancel() {
          if (own) streams.delete(own);
        },
      });
      request.signal.addEventListener('abort', () => {
        if (own) streams.delete(own);
      });
      return new Response(body, {
        headers: { 'Content-Type': 'text/event-stream', [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
      });
    },
    [`POST ${contract.upload.path}`]: async (request, url) => {
      const name = url.searchParams.get('name');
      if (!name) return mockProblem('invalid_request', 'The upload needs a name.');
      const blob = new Blob([await request.arrayBuffer()], {
        type: request.headers.get('content-type') ?? '',
      });
      const id = nextId('a');
      files.set(id, blob);
      const attachment = { id, name, type: blob.type || 'application/octet-stream', size: blob.size };
      delta({ pending: [...state().conversations.pending, { ...attachment, media: mockMedia(id) }] });
      return mockJson({ attachment }, 201);
    },
    [`GET ${contract.media.path}`]: (_request, url) => {
      const id = /^media-(.+)-x{22}$/.exec(url.searchParams.get('id') ?? '')?.[1];
      const file = id === undefined ? undefined : files.get(id);
      if (!file) return mockProblem('not_found', 'Not found.');
      return new Response(file, { headers: { 'Content-Type': file.type } });
    },
  };

  return {
    state,
    hostSwitch: (id) => hostSwitch(id),
    dropStreams() {
      for (const s of streams) s.error(new Error('restart'));
      streams.clear();
    },
    async handle(request) {
      const url = new URL(request.url);
      const route = routes[`${request.method} ${url.pathname}`];
      if (!route) return mockProblem('not_found', 'No such route.');
      const isPublic = url.pathname === contract.locale.path || url.pathname === contract.media.path;
      const refused = isPublic ? undefined : authorised(request);
      return refused ?? route(request, url);
    },
  };
}
