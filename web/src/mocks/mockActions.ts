import {
  type Action,
  type ActionOf,
  type ActionResultOf,
  type ApprovalDecision,
  isContinuable,
  type Message,
} from '@webbridge/contract';
import { mockProblem } from './mockProblem';
import { assertMockIdle, MockRefusal, mockMismatch } from './mockRefusal';
import { mockEchoOf, mockReplyTo, streamMockReply } from './mockReply';
import { mockMedia } from './mockScenario';
import type { MockStore } from './mockStore';

/** The host's answer to an id it does not know (see host/src/controller/errors.ts). */
const notFound = (what: string) => new MockRefusal(mockProblem('not_found', `There is no such ${what}.`));

/** One handler per action of the contract; a refusal is thrown as a {@link MockRefusal}. */
export type MockActions = { [N in Action['action']]: (a: ActionOf<N>) => ActionResultOf<N> };

/**
 * The mock backend's actions on `store`, replies streamed with `wordDelay` between words.
 * `/switch` makes the next send meet a host that has moved to another conversation (409).
 */
export function createMockActions(store: MockStore, wordDelay: number): MockActions {
  const { state, messages, last, message, nextId, delta, reconfigure, fork, moveTo } = store;
  let switchOnNextSend = false;
  /** Answered approvals, so a late answer is told what happened (as the host does). */
  const decided = new Map<string, ApprovalDecision>();
  return {
    send(a) {
      if (switchOnNextSend) {
        switchOnNextSend = false;
        store.hostSwitch();
        throw new MockRefusal(mockMismatch(store));
      }
      assertMockIdle(store);
      const chosen = state().conversations.pending.filter(
        (p) => a.attachmentIds === undefined || a.attachmentIds.includes(p.id),
      );
      if (a.text.trim() === '' && chosen.length === 0)
        throw new MockRefusal(mockProblem('not_applicable', 'There is nothing to send.'));
      if (a.text.trim() === '/switch') switchOnNextSend = true;
      const user = message('user', a.text, 'complete', { attachments: chosen });
      const reply = mockReplyTo(store, user);
      const rest = state().conversations.pending.filter((p) => !chosen.includes(p));
      delta({ add: [user, reply], run: { state: 'streaming', messageId: reply.id }, pending: rest });
      streamMockReply(store, reply, mockEchoOf(user), wordDelay);
      return { conversationId: state().conversationId, messageId: user.id, replyId: reply.id };
    },
    stop() {
      store.cancel();
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
      assertMockIdle(store);
      const reply = last();
      const user = messages().findLast((m) => m.role === 'user');
      // The host's rule: a stopped or failed reply (not a tool call) at the end of the branch.
      if (reply?.role !== 'assistant' || reply.tool !== undefined || !user)
        throw new MockRefusal(
          mockProblem('not_applicable', 'The conversation does not end with a reply that can be continued.'),
        );
      if (!isContinuable(reply.status))
        throw new MockRefusal(mockProblem('not_applicable', 'The last reply is not stopped.'));
      const { error: _error, ...resumed } = reply;
      delta({ put: [{ ...resumed, status: 'streaming' }], run: { state: 'streaming', messageId: reply.id } });
      streamMockReply(store, reply, mockEchoOf(user), wordDelay);
      return { messageId: reply.id };
    },
    workspace(a) {
      const project = state().projects.list.find((p) => p.id === state().projectId);
      if (!a.uri.startsWith('file:///home/me/work'))
        throw new MockRefusal(mockProblem('workspace_forbidden', 'That folder is not authorised.'));
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
      if (!state().models.list.some((m) => m.id === a.modelId))
        throw new MockRefusal(mockProblem('not_applicable', `There is no model "${a.modelId}".`));
      reconfigure({ ...state(), models: { ...state().models, current: a.modelId } });
      return { modelId: a.modelId };
    },
    branch(a) {
      assertMockIdle(store);
      const at = messages().findIndex((m) => m.id === a.messageId);
      if (at < 0) throw notFound('message');
      const tails = store.forks.get(`${state().conversationId}:${at}`);
      const target = tails?.[a.index];
      if (!tails || !target) throw new MockRefusal(mockProblem('not_applicable', 'No such version.'));
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
      assertMockIdle(store);
      const at = messages().findIndex((m) => m.id === a.messageId);
      if (at < 0) throw notFound('message');
      const original = messages()[at];
      if (original?.role !== 'user')
        throw new MockRefusal(mockProblem('not_applicable', 'Only user messages can be edited.'));
      const user: Message = { ...original, id: nextId('m'), text: a.text, createdAt: Date.now() };
      const reply = mockReplyTo(store, user);
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
      streamMockReply(store, reply, mockEchoOf(user), wordDelay);
      return { messageId: user.id, replyId: reply.id };
    },
    regenerate(a) {
      assertMockIdle(store);
      const at =
        a.messageId === undefined
          ? messages().findLastIndex((m) => m.role === 'assistant')
          : messages().findIndex((m) => m.id === a.messageId);
      const target = messages()[at];
      const user = messages()[at - 1];
      if (target?.role !== 'assistant' || !user)
        throw new MockRefusal(mockProblem('not_applicable', 'Nothing to regenerate.'));
      const reply = { ...mockReplyTo(store, user), parentId: user.id };
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
      streamMockReply(store, tail[0] ?? reply, mockEchoOf(user), wordDelay);
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
        throw new MockRefusal(mockProblem('not_found', 'No such conversation.'));
      if (a.conversationId !== state().conversationId) moveTo(a.conversationId, state().conversations.list);
      return { conversationId: a.conversationId };
    },
    renameConversation(a) {
      if (!state().conversations.list.some((c) => c.id === a.conversationId)) throw notFound('conversation');
      const list = state().conversations.list.map((c) =>
        c.id === a.conversationId ? { ...c, title: a.title } : c,
      );
      reconfigure({ ...state(), conversations: { ...state().conversations, list } });
      return { conversationId: a.conversationId };
    },
    deleteConversation(a) {
      if (!state().conversations.list.some((c) => c.id === a.conversationId)) throw notFound('conversation');
      const list = state().conversations.list.filter((c) => c.id !== a.conversationId);
      store.histories.delete(a.conversationId);
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
      if (!state().projects.list.some((p) => p.id === a.projectId)) throw notFound('project');
      return { projectId: a.projectId };
    },
    approve(a) {
      const approval = state().approvals.find((p) => p.id === a.approvalId);
      const earlier = decided.get(a.approvalId);
      if (!approval && earlier) {
        const verb = earlier.decision === 'allow' ? 'allowed' : 'denied';
        throw new MockRefusal(
          mockProblem('not_applicable', `That approval was already ${verb} with the access code.`, {
            decided: { approvalId: a.approvalId, ...earlier },
          }),
        );
      }
      if (!approval) throw notFound('approval');
      // The mock has no paired devices: every answer comes with the access code, as a browser
      // without a device credential would send it to the host.
      const decision: ApprovalDecision = { decision: a.decision, by: { kind: 'accessCode' }, at: Date.now() };
      decided.set(a.approvalId, decision);
      const call = messages().find((m) => m.id === approval.messageId);
      const result = message(
        'tool',
        a.decision === 'allow'
          ? `Done: ${approval.summary}`
          : `Denied: the user did not allow ${approval.tool}.`,
        'complete',
        {
          parentId: approval.messageId,
          tool: { name: approval.tool, args: approval.args, approvalId: approval.id, decided: decision },
        },
      );
      delta({
        ...(call
          ? {
              put: [
                {
                  ...call,
                  status: 'complete' as const,
                  ...(call.tool ? { tool: { ...call.tool, decided: decision } } : {}),
                },
              ],
            }
          : {}),
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
      if (!state().conversations.pending.some((p) => p.id === a.attachmentId)) throw notFound('attachment');
      delta({ pending: state().conversations.pending.filter((p) => p.id !== a.attachmentId) });
      return { attachmentId: a.attachmentId };
    },
    refreshMedia(a) {
      if (!store.files.has(a.attachmentId))
        throw new MockRefusal(mockProblem('not_found', 'No such attachment.'));
      return { attachmentId: a.attachmentId, media: mockMedia(a.attachmentId) };
    },
    // The mock is reached with the access code alone, as the host would be without a paired
    // device: push is there, but only a paired device can subscribe.
    pushStatus() {
      return { publicKey: MOCK_VAPID_KEY, subscribed: null, paired: false };
    },
    subscribePush(a) {
      // The host's first check, before the device is asked for (host/src/push/checkEndpoint.ts).
      if (!a.subscription.endpoint.startsWith('https://'))
        throw new MockRefusal(
          mockProblem('invalid_request', "The push subscription's endpoint must use https:.", {
            issues: [{ path: ['subscription', 'endpoint'], message: 'must use https:' }],
          }),
        );
      throw new MockRefusal(mockProblem('not_applicable', PUSH_NEEDS_DEVICE));
    },
    unsubscribePush() {
      return { subscribed: null };
    },
    reportPresence(a) {
      return { visible: a.visible };
    },
  };
}

/** A well-formed VAPID public key (65 bytes, base64url) that signs nothing. */
const MOCK_VAPID_KEY = `B${'A'.repeat(86)}`;

const PUSH_NEEDS_DEVICE =
  'Push needs a paired device: open the host’s pairing link or QR code on this browser first (the access code alone names no device to notify).';
