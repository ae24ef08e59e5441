import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { HostAttachment, HostMessage, Projection } from '@webbridge/contract';
import { CONNECTION_STRINGS, PROTOCOL_VERSION } from '@webbridge/contract';
import type { HostAdapter, MediaFile } from '@webbridge/server';
import { BridgeError } from '@webbridge/server';

type Chat = { messages: HostMessage[]; pending: HostAttachment[] };
const ONE = { index: 0, count: 1 };
const PROJECT = { id: 'main', name: 'Echo', workspace: { uri: 'file:///', name: 'none' }, createdAt: 0 };
const fail = (code: 'not_found' | 'not_applicable', detail: string): never => {
  throw new BridgeError(code, detail);
};
const linear = () => fail('not_applicable', 'This echo keeps one thread per conversation, without branches.');
/** A message of a linear thread: it has no siblings. */
function say(role: 'user' | 'assistant', text: string, parentId: string | null): HostMessage {
  const status = role === 'user' ? 'complete' : 'streaming';
  const id = randomUUID();
  return { id, parentId, role, text, status, createdAt: Date.now(), attachments: [], sibling: ONE };
}

/**
 * An app's own controller, in memory, behind `HostAdapter`: each reply echoes the user's text word by
 * word. Tasks run one after another on `runOnMain` and never await; the echo reports each word back
 * through a later task of its own. One reply streams at a time.
 */
export function createEchoHost(wordDelayMs = 40) {
  const chats = new Map<string, Chat>();
  const files = new Map<string, MediaFile>();
  const listeners = new Set<() => void>();
  let tail: Promise<unknown> = Promise.resolve();
  let reply: { chatId: string; messageId: string; words: string[] } | undefined;
  let list: Projection['conversations']['list'] = [];
  let timer: NodeJS.Timeout | undefined;
  let state: Projection = {
    instanceId: randomUUID(),
    sessionRevision: 0,
    conversationId: '',
    projectId: 'main',
    conversations: { list, messages: [], pending: [], run: { state: 'idle', messageId: null } },
    projects: { list: [PROJECT], roots: [] },
    models: { current: 'echo', list: [{ id: 'echo', name: 'Echo', provider: 'in-memory' }] },
    tools: { list: [] },
    approvals: [],
    settings: { theme: 'system', autoApprove: [], allowCommands: false, systemPrompt: '' },
  };
  const chat = (id = state.conversationId) => chats.get(id) ?? fail('not_found', 'No such conversation.');
  /** A new projection; unchanged parts keep their identity, so the bridge diffs by reference. */
  function publish(conversationId = state.conversationId, more: Partial<Projection> = {}) {
    const { messages, pending } = chat(conversationId);
    const streaming = reply?.chatId === conversationId ? reply.messageId : null;
    const run = { state: streaming ? 'streaming' : 'idle', messageId: streaming } as const;
    // Another destination: a send checked against the old one is refused (409) from now on.
    const sessionRevision = state.sessionRevision + (conversationId === state.conversationId ? 0 : 1);
    const conversations = { list, messages, pending, run };
    state = { ...state, ...more, sessionRevision, conversationId, conversations };
    for (const listener of listeners) listener();
    return { conversationId };
  }
  function create(title = 'New conversation') {
    const id = randomUUID();
    chats.set(id, { messages: [], pending: [] });
    list = [...list, { id, title, projectId: 'main', createdAt: Date.now() }];
    return publish(id);
  }
  function patch(chatId: string, id: string, fields: Partial<HostMessage>) {
    const c = chat(chatId);
    c.messages = c.messages.map((m) => (m.id === id ? { ...m, ...fields } : m));
  }
  function step(r: NonNullable<typeof reply>) {
    if (reply !== r) return;
    const text = chat(r.chatId).messages.at(-1)!.text + r.words.shift();
    patch(r.chatId, r.messageId, { text, status: r.words.length > 0 ? 'streaming' : 'complete' });
    if (r.words.length > 0) timer = setTimeout(() => void runOnMain(() => step(r)), wordDelayMs);
    else reply = undefined;
    publish();
  }
  function end() {
    clearTimeout(timer);
    reply = undefined;
  }
  function runOnMain<T>(task: () => T): Promise<T> {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  }

  create('Echo');
  return {
    readState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    runOnMain,
    actions: {
      send(a) {
        if (reply) fail('not_applicable', 'A reply is still streaming: stop it first.');
        const c = chat();
        const attachments = c.pending.filter((p) => a.attachmentIds?.includes(p.id) ?? true);
        const user = { ...say('user', a.text, c.messages.at(-1)?.id ?? null), attachments };
        const answer = say('assistant', '', user.id);
        c.messages = [...c.messages, user, answer];
        c.pending = c.pending.filter((p) => !attachments.includes(p));
        reply = { chatId: state.conversationId, messageId: answer.id, words: a.text.split(/(?<=\s)(?=\S)/) };
        step(reply);
        return { conversationId: state.conversationId, messageId: user.id, replyId: answer.id };
      },
      stop() {
        if (reply?.chatId !== state.conversationId) return { stopped: false };
        patch(reply.chatId, reply.messageId, { status: 'stopped' });
        end();
        publish();
        return { stopped: true };
      },
      newConversation: (a) =>
        (a.projectId ?? 'main') === 'main' ? create(a.title) : fail('not_found', 'No such project.'),
      selectConversation: (a) => publish(a.conversationId),
      renameConversation(a) {
        chat(a.conversationId);
        list = list.map((s) => (s.id === a.conversationId ? { ...s, title: a.title } : s));
        publish();
        return { conversationId: a.conversationId };
      },
      deleteConversation(a) {
        chat(a.conversationId);
        if (reply?.chatId === a.conversationId) end();
        chats.delete(a.conversationId);
        list = list.filter((s) => s.id !== a.conversationId);
        if (list[0] === undefined) create();
        else publish(chats.has(state.conversationId) ? state.conversationId : list[0].id);
        return { conversationId: a.conversationId };
      },
      removeAttachment(a) {
        const c = [...chats.values()].find((x) => x.pending.some((p) => p.id === a.attachmentId));
        if (!c) return fail('not_found', 'No such attachment.');
        c.pending = c.pending.filter((p) => p.id !== a.attachmentId);
        rmSync(files.get(a.attachmentId)!.path, { force: true });
        files.delete(a.attachmentId);
        publish();
        return { attachmentId: a.attachmentId };
      },
      updateSettings(a) {
        // JSON has no `undefined`: each key the partial carries holds a value.
        publish(undefined, { settings: { ...state.settings, ...a.settings } as Projection['settings'] });
        return { settings: state.settings };
      },
      model: (a) => (a.modelId === 'echo' ? { modelId: 'echo' } : fail('not_found', 'No such model.')),
      selectProject: (a) =>
        a.projectId === 'main' ? { projectId: 'main' } : fail('not_found', 'No such project.'),
      approve: () => fail('not_found', 'No such approval: this echo calls no tools.'),
      workspace: () => fail('not_applicable', 'This echo reads no folders.'),
      continue: () => fail('not_applicable', 'An echo has nothing more to say.'),
      branch: linear,
      editMessage: linear,
      regenerate: linear,
    },
    addAttachment(upload) {
      const c = chat(upload.conversationId);
      const attachment = { id: randomUUID(), name: upload.name, type: upload.type, size: upload.size };
      files.set(attachment.id, upload);
      c.pending = [...c.pending, attachment];
      publish();
      return attachment;
    },
    resolveMedia: (attachmentId) => files.get(attachmentId),
    // This app reads no folders, so no workspace URI from a browser is ever authorised (403).
    authoriseWorkspace: () => undefined,
    locale: () => ({ language: 'en', strings: { ...CONNECTION_STRINGS }, protocol: PROTOCOL_VERSION }),
    close: () => clearTimeout(timer),
  } satisfies HostAdapter & { close(): void };
}
