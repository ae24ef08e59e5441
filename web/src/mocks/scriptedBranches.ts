import { type HostMessage, identityOf, ProtocolError } from '@webbridge/contract';
import type { EchoReplies, HostActionHandlers, MemoryConversations } from '@webbridge/server';
import { MessageTree } from './MessageTree';

/** The actions that fork a conversation, answered by {@link scriptedBranches}. */
type BranchActionName = 'branch' | 'editMessage' | 'regenerate';

// The reference host's words (host/src/controller/errors.ts and its callers).
const notFound = (what: string) => new ProtocolError('not_found', `There is no such ${what}.`);
const notApplicable = (detail: string) => new ProtocolError('not_applicable', detail);

/**
 * Branches for the scripted host, with the reference host's rules
 * (host/src/controller/MessageActions.ts): `editMessage` adds the edited text as a new sibling
 * of a user message (keeping its attachments) and answers it; `regenerate` adds a new reply
 * beside an assistant's (default: the branch's last one); `branch` shows another sibling's
 * branch, down to its newest deepest leaf. Each refuses while a reply streams or an approval
 * waits, names a message it does not know `not_found`, and moves the session revision when the
 * branch shown changes. The replies are the echo's own: `EchoReplies.send` makes a message and
 * its streaming answer at the end of the branch, which is then hung where the fork needs it.
 */
export function scriptedBranches(
  conversations: MemoryConversations,
  replies: Pick<EchoReplies, 'actions'>,
): Pick<HostActionHandlers, BranchActionName> {
  const { store } = conversations;
  const trees = new Map<string, MessageTree>();

  /** The current conversation's tree, holding the branch shown as it is now. */
  const current = () => {
    const { conversationId } = store.readState();
    const tree = trees.get(conversationId) ?? new MessageTree();
    trees.set(conversationId, tree);
    tree.absorb(conversations.messages(conversationId));
    return { conversationId, tree, shown: conversations.messages(conversationId) };
  };
  const assertIdle = () => {
    const state = store.readState();
    if (state.conversations.run.state === 'streaming')
      throw notApplicable('A reply is streaming; stop it first.');
    if (state.approvals.some((a) => a.conversationId === state.conversationId))
      throw notApplicable('A tool call waits for approval; allow or deny it first.');
  };
  /** Shows the branch that ends at `leafId`, and counts the change of destination. */
  const show = (conversationId: string, tree: MessageTree, leafId: string, streaming: string | null) => {
    conversations.setMessages(conversationId, tree.path(leafId), streaming);
    const state = store.readState();
    store.publish({ ...state, sessionRevision: state.sessionRevision + 1 });
  };
  /** The echo's user message and streaming answer, taken off the end of the branch they were made on. */
  const echo = (conversationId: string, text: string) => {
    // No attachments: the pending tray waits for the next message, as an edit leaves it.
    const identity = identityOf(store.readState());
    const made = replies.actions.send({ action: 'send', text, attachmentIds: [], ...identity });
    const added = conversations.messages(conversationId);
    const find = (id: string) => added.find((m) => m.id === id) as HostMessage;
    return { user: find(made.messageId), reply: find(made.replyId) };
  };

  return {
    branch({ messageId, index }) {
      assertIdle();
      const { conversationId, tree, shown } = current();
      if (!tree.get(messageId)) throw notFound('message');
      const siblings = tree.siblingsOf(messageId);
      const onBranch = new Set(shown.map((m) => m.id));
      // Any sibling of the one shown will do, as on the reference host: a client that has just
      // switched may still hold the id it switched away from.
      if (!siblings.some((id) => onBranch.has(id)))
        throw notApplicable('That message is not at a fork of the current branch.');
      const target = siblings[index];
      if (target === undefined) throw notApplicable('That message has no sibling at this index.');
      const leaf = tree.newestDeepestLeaf(target);
      if (leaf !== shown.at(-1)?.id) show(conversationId, tree, leaf, null);
      return { messageId: target };
    },
    editMessage({ messageId, text }) {
      assertIdle();
      const { conversationId, tree } = current();
      const original = tree.get(messageId);
      if (!original) throw notFound('message');
      if (original.role !== 'user') throw notApplicable('Only user messages can be edited.');
      if (text.trim() === '' && original.attachments.length === 0)
        throw notApplicable('An edit cannot be empty.');
      const { user, reply } = echo(conversationId, text);
      // The edit keeps the original's attachments (the same files, as the host's copies share them).
      tree.add({ ...user, parentId: original.parentId, attachments: original.attachments });
      tree.add(reply);
      show(conversationId, tree, reply.id, reply.id);
      return { messageId: user.id, replyId: reply.id };
    },
    regenerate({ messageId }) {
      assertIdle();
      const { conversationId, tree, shown } = current();
      const target =
        messageId === undefined ? shown.findLast((m) => m.role === 'assistant') : tree.get(messageId);
      if (!target) {
        if (messageId !== undefined) throw notFound('message');
        throw notApplicable('There is no reply to regenerate.');
      }
      if (target.role !== 'assistant') throw notApplicable('Only assistant replies can be regenerated.');
      const { parentId } = target;
      if (parentId === null) throw notApplicable('That reply answers nothing.');
      // The echo answers the message again; the user message it made for that is dropped.
      const { reply } = echo(conversationId, tree.get(parentId)?.text ?? '');
      tree.add({ ...reply, parentId });
      show(conversationId, tree, reply.id, reply.id);
      return { replyId: reply.id };
    },
  };
}
