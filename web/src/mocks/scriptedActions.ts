import { type Approval, type HostMessage, ProtocolError, type PushChoices } from '@webbridge/contract';
import type { HostActionHandlers, MemoryConversations } from '@webbridge/server';

/** The actions the scripted host answers beyond the embedding's chat-only defaults. */
type ScriptedActionName = 'approve' | 'pushStatus' | 'subscribePush' | 'unsubscribePush';

/** The scripted host's controls, for the mock bridge (a `/approve` send) and the console. */
export interface ScriptedHost {
  readonly actions: Pick<HostActionHandlers, ScriptedActionName>;
  /**
   * The answer to a send of {@link APPROVE}: the user's message, then the model asks to run
   * `write_file`: its message waits in the current conversation and its approval in the
   * projection's `approvals`, until a page answers it. A `send` handler (on the host's queue).
   */
  askApproval(text: string): { conversationId: string; messageId: string; replyId: string };
}

/** The text whose send makes the scripted model ask for an approval. */
export const APPROVE = '/approve';

/** A VAPID-shaped public key (65 bytes, base64url): the page can subscribe with it, no vendor is reached. */
const PUBLIC_KEY = `B${'A'.repeat(86)}`;

/**
 * What the mocks add to the in-memory host so every screen can be developed offline: a tool
 * call that waits for an approval (answered by `approve`, recorded on the tool message with who
 * and when), and push state (`pushStatus`, `subscribePush`, `unsubscribePush` keep one device's
 * choices; nothing is sent). Approvals of unknown ids are `not_found`, as on the reference host.
 */
export function scriptedActions(conversations: MemoryConversations): ScriptedHost {
  const { store } = conversations;
  let subscribed: PushChoices | null = null;
  let next = 0;
  return {
    actions: {
      approve({ approvalId, decision }, origin) {
        const state = store.readState();
        const approval = state.approvals.find((a) => a.id === approvalId);
        if (!approval) throw new ProtocolError('not_found', 'There is no such approval.');
        const decided = {
          decision,
          by: origin?.device
            ? { kind: 'device' as const, name: origin.device.name }
            : { kind: 'accessCode' as const },
          at: Date.now(),
        };
        // As the reference host: the asking message records the decision and, allowed or not,
        // the tool's result follows it.
        const asked = conversations.messages(approval.conversationId);
        const messages = asked.map(
          (m): HostMessage =>
            m.tool?.approvalId === approvalId
              ? { ...m, status: 'complete', tool: { ...m.tool, decided } }
              : m,
        );
        const result: HostMessage = {
          id: `result-${approvalId}`,
          parentId: approval.messageId,
          role: 'tool',
          text: decision === 'allow' ? 'Wrote notes/todo.md (24 bytes).' : 'Denied: nothing was written.',
          status: 'complete',
          createdAt: Date.now(),
          attachments: [],
          sibling: { index: 0, count: 1 },
          tool: { name: approval.tool, args: approval.args, approvalId, decided },
        };
        conversations.setMessages(approval.conversationId, [...messages, result], null);
        store.publish({
          ...store.readState(),
          approvals: store.readState().approvals.filter((a) => a !== approval),
        });
        return { approvalId, decision };
      },
      pushStatus: (_action, origin) => ({
        publicKey: PUBLIC_KEY,
        subscribed,
        paired: origin?.device !== undefined,
      }),
      subscribePush({ choices }) {
        subscribed = choices;
        return { subscribed: choices };
      },
      unsubscribePush() {
        subscribed = null;
        return { subscribed: null };
      },
    },
    askApproval(text) {
      const state = store.readState();
      next += 1;
      const id = `approval-${next}`;
      const args = JSON.stringify({ path: 'notes/todo.md', content: '- try the approval card\n' });
      const messages = conversations.messages(state.conversationId);
      const base = { status: 'complete' as const, attachments: [], sibling: { index: 0, count: 1 } };
      const user: HostMessage = {
        ...base,
        id: `ask-${next}`,
        parentId: messages.at(-1)?.id ?? null,
        role: 'user',
        text,
        createdAt: Date.now(),
      };
      const tool: HostMessage = {
        ...base,
        status: 'waiting',
        id: `tool-${next}`,
        parentId: user.id,
        role: 'assistant',
        text: 'I will write the list down.',
        createdAt: Date.now(),
        tool: { name: 'write_file', args, approvalId: id },
      };
      conversations.setMessages(state.conversationId, [...messages, user, tool], null);
      const approval: Approval = {
        id,
        tool: 'write_file',
        summary: 'Write notes/todo.md',
        args,
        conversationId: state.conversationId,
        messageId: tool.id,
        createdAt: Date.now(),
      };
      store.publish({ ...store.readState(), approvals: [...store.readState().approvals, approval] });
      return { conversationId: state.conversationId, messageId: user.id, replyId: tool.id };
    },
  };
}
