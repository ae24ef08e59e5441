import type { Approval, HostAttachment, HostMessage, Projection } from '@webbridge/contract';
import { aConversationSummary, aHostMessage, aProjection } from '@webbridge/contract/testing';
import type { ProjectionCommand } from './projectionCommand';

/**
 * A host controller reduced to its projection: every change builds a new projection in which
 * unchanged groups and messages keep their identity, as `HostAdapter.readState` promises.
 */
export class FakeHost {
  state: Projection;
  private next = 0;

  constructor() {
    this.state = aProjection({
      instanceId: 'instance-0',
      conversationId: 'c0',
      projectId: 'p1',
      conversations: { list: [aConversationSummary({ id: 'c0', title: 'Conversation c0', createdAt: 0 })] },
      projects: {
        list: [{ id: 'p1', name: 'One', workspace: { uri: 'file:///w/one', name: 'one' }, createdAt: 0 }],
        roots: [{ uri: 'file:///w', name: 'w' }],
      },
      models: { current: 'echo', list: [{ id: 'echo', name: 'Echo', provider: 'local' }] },
      tools: { list: [{ name: 'write', description: 'Writes a file', needsApproval: true, enabled: true }] },
    });
  }

  private id(prefix: string): string {
    return `${prefix}${this.next++}`;
  }

  private attachment(): HostAttachment {
    return { id: this.id('att'), name: 'photo.png', type: 'image/png', size: this.next * 10 };
  }

  private message(
    role: HostMessage['role'],
    text: string,
    parentId: string | null,
    extra: Partial<HostMessage> = {},
  ) {
    return aHostMessage({ id: this.id('m'), parentId, role, text, createdAt: this.next, ...extra });
  }

  private conversations(change: Partial<Projection['conversations']>): void {
    this.state = { ...this.state, conversations: { ...this.state.conversations, ...change } };
  }

  /** Replaces the tail from index `at` with `tail`. */
  private replaceFrom(at: number, tail: HostMessage[]): void {
    this.conversations({ messages: [...this.state.conversations.messages.slice(0, at), ...tail] });
  }

  /** The index `back` steps from the end (clamped), or undefined when there are no messages. */
  private indexFromEnd(back: number): number | undefined {
    const length = this.state.conversations.messages.length;
    return length === 0 ? undefined : length - 1 - (back % length);
  }

  private bump(): void {
    this.state = { ...this.state, sessionRevision: this.state.sessionRevision + 1 };
  }

  /** Applies one projection change (connection events are the subscribers' business). */
  apply(command: Exclude<ProjectionCommand, { t: 'deliver' | 'disconnect' }>): void {
    const { messages, pending } = this.state.conversations;
    const last = messages.at(-1);
    switch (command.t) {
      case 'send': {
        const attachments = command.attach ? [...pending, this.attachment()] : pending;
        const user = this.message('user', command.text, last?.id ?? null, { attachments });
        const reply = this.message('assistant', '', user.id, { status: 'streaming', model: 'echo' });
        this.conversations({
          messages: [...messages, user, reply],
          pending: pending.length === 0 ? pending : [],
          run: { state: 'streaming', messageId: reply.id },
        });
        return;
      }
      case 'stream':
        if (last?.status === 'streaming') {
          this.replaceFrom(messages.length - 1, [{ ...last, text: last.text + command.text }]);
        }
        return;
      case 'status': {
        const at = this.indexFromEnd(command.back);
        const old = at === undefined ? undefined : messages[at];
        if (at === undefined || old === undefined) return;
        const sibling = command.siblings
          ? { index: old.sibling.index, count: old.sibling.count + 1 }
          : old.sibling;
        const changed: HostMessage = { ...old, status: command.status, sibling };
        this.conversations({ messages: messages.map((m, i) => (i === at ? changed : m)) });
        return;
      }
      case 'finish':
        if (last?.status === 'streaming')
          this.replaceFrom(messages.length - 1, [{ ...last, status: 'complete' }]);
        this.conversations({ run: { state: 'idle', messageId: null } });
        return;
      case 'edit': {
        const at = this.indexFromEnd(command.back);
        const old = at === undefined ? undefined : messages[at];
        if (at === undefined || old === undefined) return;
        const sibling = { index: old.sibling.count, count: old.sibling.count + 1 };
        const edited = this.message('user', command.text, old.parentId, { sibling });
        const reply = this.message('assistant', '', edited.id, { status: 'streaming' });
        this.replaceFrom(at, [edited, reply]);
        if (command.bump) this.bump();
        return;
      }
      case 'branch': {
        const at = this.indexFromEnd(command.back) ?? 0;
        const tail: HostMessage[] = [];
        for (let i = 0; i < command.count; i++) {
          const parent = tail.at(-1)?.id ?? messages[at - 1]?.id ?? null;
          tail.push(this.message(i % 2 === 0 ? 'user' : 'assistant', `branch ${i}`, parent));
        }
        this.replaceFrom(at, tail);
        if (command.bump) this.bump();
        return;
      }
      case 'regenerate':
        if (last?.role === 'assistant') {
          this.replaceFrom(messages.length - 1, [
            this.message('assistant', '', last.parentId, {
              status: 'streaming',
              sibling: { index: 1, count: 2 },
            }),
          ]);
        }
        return;
      case 'switch': {
        const id = command.fresh ? this.id('c') : (this.state.conversations.list[0]?.id ?? 'c0');
        const list = command.fresh
          ? [
              ...this.state.conversations.list,
              { id, title: `Conversation ${id}`, projectId: 'p1', createdAt: 1 },
            ]
          : this.state.conversations.list;
        const fresh: HostMessage[] = [];
        for (let i = 0; i < command.count; i++)
          fresh.push(this.message('user', `old ${i}`, fresh.at(-1)?.id ?? null));
        this.state = {
          ...this.state,
          conversationId: id,
          sessionRevision: this.state.sessionRevision + 1,
          conversations: { list, messages: fresh, pending, run: { state: 'idle', messageId: null } },
        };
        return;
      }
      case 'approvalAdd': {
        const approval: Approval = {
          id: this.id('ap'),
          tool: 'write',
          summary: 'write notes.txt',
          args: '{"path":"notes.txt"}',
          conversationId: this.state.conversationId,
          messageId: last?.id ?? 'none',
          createdAt: this.next,
        };
        this.state = { ...this.state, approvals: [...this.state.approvals, approval] };
        return;
      }
      case 'approvalRemove':
        this.state = { ...this.state, approvals: this.state.approvals.slice(1) };
        return;
      case 'run':
        this.conversations({ run: { state: command.state, messageId: last?.id ?? null } });
        return;
      case 'pendingAdd':
        this.conversations({ pending: [...pending, this.attachment()] });
        return;
      case 'pendingRemove':
        this.conversations({ pending: pending.slice(1) });
        return;
      case 'settings':
        this.state = { ...this.state, settings: { ...this.state.settings, theme: command.theme } };
        return;
      case 'model':
        this.state = { ...this.state, models: { ...this.state.models, current: this.id('model') } };
        return;
      case 'restart':
        this.state = { ...this.state, instanceId: this.id('instance-') };
        return;
      case 'touch':
        this.state = { ...this.state };
        return;
      case 'rewrap':
        // Equal values in new objects: the server must not send them again.
        this.state = {
          ...this.state,
          approvals: [...this.state.approvals],
          conversations: {
            ...this.state.conversations,
            run: { ...this.state.conversations.run },
            pending: [...pending],
          },
        };
        return;
      default:
        throw new Error(`unknown command ${JSON.stringify(command satisfies never)}`);
    }
  }
}
