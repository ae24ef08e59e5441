import { type ApplyResult, applyEvent, parseJsonSafely, type SyncState } from '@webbridge/client-sdk';
import type {
  Approval,
  DeltaEvent,
  HostAttachment,
  HostMessage,
  MediaRef,
  Projection,
  Snapshot,
  StreamEvent,
} from '@webbridge/contract';
import { appendFrameSchema, stateEventSchema } from '@webbridge/contract';
import {
  createSignatureCache,
  diffProjection,
  encodeDelta,
  isEmptyDelta,
  MediaRegistry,
  WireMapper,
} from '@webbridge/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Media ids that depend only on the attachment, so wire snapshots can be compared. */
class FakeMedia extends MediaRegistry {
  override refFor(attachmentId: string): MediaRef {
    return { id: `media-${attachmentId}-0123456789abcdef`, expiresAt: 1_000 };
  }
}

type Status = HostMessage['status'];
const statuses: readonly Status[] = ['complete', 'streaming', 'stopped', 'error', 'waiting'];

/** A change of the host's projection, or an event on one subscriber's connection. */
type Command =
  | { readonly t: 'send'; readonly text: string; readonly attach: boolean }
  | { readonly t: 'stream'; readonly text: string }
  | { readonly t: 'status'; readonly back: number; readonly status: Status; readonly siblings: boolean }
  | { readonly t: 'finish' }
  | { readonly t: 'edit'; readonly back: number; readonly text: string; readonly bump: boolean }
  | { readonly t: 'branch'; readonly back: number; readonly count: number; readonly bump: boolean }
  | { readonly t: 'regenerate' }
  | { readonly t: 'switch'; readonly fresh: boolean; readonly count: number }
  | { readonly t: 'approvalAdd' }
  | { readonly t: 'approvalRemove' }
  | { readonly t: 'run'; readonly state: Projection['conversations']['run']['state'] }
  | { readonly t: 'pendingAdd' }
  | { readonly t: 'pendingRemove' }
  | { readonly t: 'settings'; readonly theme: Projection['settings']['theme'] }
  | { readonly t: 'model' }
  | { readonly t: 'restart' }
  | { readonly t: 'touch' }
  | { readonly t: 'rewrap' }
  | { readonly t: 'deliver'; readonly sub: number }
  | { readonly t: 'disconnect'; readonly sub: number };

// ASCII for short appends (one code unit), any code point for surrogate pairs and offsets.
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }));
const back = fc.nat({ max: 6 });
const sub = fc.nat({ max: 7 });

const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('send' as const), text, attach: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('stream' as const), text }), weight: 8 },
  fc.record({
    t: fc.constant('status' as const),
    back,
    status: fc.constantFrom(...statuses),
    siblings: fc.boolean(),
  }),
  fc.record({ t: fc.constant('finish' as const) }),
  fc.record({ t: fc.constant('edit' as const), back, text, bump: fc.boolean() }),
  fc.record({ t: fc.constant('branch' as const), back, count: fc.nat({ max: 3 }), bump: fc.boolean() }),
  fc.record({ t: fc.constant('regenerate' as const) }),
  fc.record({ t: fc.constant('switch' as const), fresh: fc.boolean(), count: fc.nat({ max: 3 }) }),
  fc.record({ t: fc.constant('approvalAdd' as const) }),
  fc.record({ t: fc.constant('approvalRemove' as const) }),
  fc.record({
    t: fc.constant('run' as const),
    state: fc.constantFrom('idle', 'streaming', 'waiting_approval'),
  }),
  fc.record({ t: fc.constant('pendingAdd' as const) }),
  fc.record({ t: fc.constant('pendingRemove' as const) }),
  fc.record({ t: fc.constant('settings' as const), theme: fc.constantFrom('system', 'light', 'dark') }),
  fc.record({ t: fc.constant('model' as const) }),
  fc.record({ t: fc.constant('restart' as const) }),
  fc.record({ t: fc.constant('touch' as const) }),
  fc.record({ t: fc.constant('rewrap' as const) }),
  { arbitrary: fc.record({ t: fc.constant('deliver' as const), sub }), weight: 2 },
  fc.record({ t: fc.constant('disconnect' as const), sub }),
);

/**
 * A host controller reduced to its projection: every change builds a new projection in which
 * unchanged groups and messages keep their identity, as `HostAdapter.readState` promises.
 */
class FakeHost {
  state: Projection;
  private next = 0;

  constructor() {
    this.state = {
      instanceId: 'instance-0',
      sessionRevision: 0,
      conversationId: 'c0',
      projectId: 'p1',
      conversations: {
        list: [{ id: 'c0', title: 'Conversation c0', projectId: 'p1', createdAt: 0 }],
        messages: [],
        pending: [],
        run: { state: 'idle', messageId: null },
      },
      projects: {
        list: [{ id: 'p1', name: 'One', workspace: { uri: 'file:///w/one', name: 'one' }, createdAt: 0 }],
        roots: [{ uri: 'file:///w', name: 'w' }],
      },
      models: { current: 'echo', list: [{ id: 'echo', name: 'Echo', provider: 'local' }] },
      tools: { list: [{ name: 'write', description: 'Writes a file', needsApproval: true, enabled: true }] },
      approvals: [],
      settings: { theme: 'system', autoApprove: [], allowCommands: false, systemPrompt: '' },
    };
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
    const message: HostMessage = {
      id: this.id('m'),
      parentId,
      role,
      text,
      status: 'complete',
      createdAt: this.next,
      attachments: [],
      sibling: { index: 0, count: 1 },
      ...extra,
    };
    return message;
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

  apply(command: Exclude<Command, { t: 'deliver' | 'disconnect' }>): void {
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

interface Subscriber {
  /** The projection the server last sent to this subscriber (null: new connection). */
  sent: Projection | null;
  /** The client's state, as the SDK's reducer keeps it. */
  client: SyncState | null;
  /** Deliver after every `speed`-th change: 1 = fast consumer, more = slow (coalesced deltas). */
  readonly speed: number;
}

/** The server side of the simulation: one signature cache, one mapper, seq = projection version. */
class FakeServer {
  private readonly signatureOf = createSignatureCache();
  private readonly signatures = new WeakMap<Projection, string>();
  private readonly versions = new WeakMap<Projection, number>();
  private version = 0;
  readonly mapper = new WireMapper(new FakeMedia(60_000, () => 0));

  publish(state: Projection): void {
    if (this.versions.has(state)) return;
    this.versions.set(state, ++this.version);
    this.signatures.set(state, this.signatureOf(state));
  }

  private seq(state: Projection): number {
    return this.versions.get(state)!;
  }

  private signature(state: Projection): string {
    return this.signatures.get(state)!;
  }

  /** What the producer would send to move a subscriber from `sent` to `now`; undefined: nothing. */
  eventFor(sent: Projection | null, now: Projection): StreamEvent | undefined {
    if (sent === now) return undefined;
    if (sent === null || this.signature(sent) !== this.signature(now)) {
      return {
        kind: 'snapshot',
        seq: this.seq(now),
        signature: this.signature(now),
        snapshot: this.mapper.snapshot(now),
      };
    }
    const delta = diffProjection(sent, now);
    if (isEmptyDelta(delta)) return undefined;
    // The server's own encoder: a lone append to the running message becomes a compact append.
    return encodeDelta(delta, now, this.seq(sent), this.seq(now), this.mapper);
  }

  /** The wire snapshot of a projection after a trip through JSON, as a client would receive it. */
  wire(state: Projection): Snapshot {
    return JSON.parse(JSON.stringify(this.mapper.snapshot(state))) as Snapshot;
  }
}

/** Serialises and decodes an event the way the server frames it and the SDK's reader decodes it. */
function overTheWire(event: StreamEvent): StreamEvent {
  if (event.kind === 'append') {
    const [base, text] = appendFrameSchema.parse(parseJsonSafely(JSON.stringify([event.base, event.text])));
    return { kind: 'append', seq: event.seq, base, text };
  }
  return stateEventSchema.parse(parseJsonSafely(JSON.stringify(event)));
}

function expectApplied(result: ApplyResult): SyncState {
  if (result.kind !== 'applied') throw new Error(`the client refused a server event (${result.reason})`);
  return result.state;
}

function deliver(server: FakeServer, host: FakeHost, subscriber: Subscriber): void {
  const now = host.state;
  const raw = server.eventFor(subscriber.sent, now);
  if (raw !== undefined) {
    const event = overTheWire(raw);
    const before = subscriber.client;
    if (event.kind !== 'snapshot') {
      // The same delta offered to a state at any other seq, or to no state, is refused.
      const elsewhere = { ...before!, seq: event.base + 1 + (event.seq % 3) };
      expect(applyEvent(elsewhere, event)).toEqual({ kind: 'resync', reason: 'wrong_base' });
      expect(applyEvent(null, event)).toEqual({ kind: 'resync', reason: 'no_state' });
    }
    const after = expectApplied(applyEvent(before, event));
    if (event.kind === 'delta' && before !== null && subscriber.sent !== null) {
      // Messages the host kept by identity keep their identity on the client too.
      const sent = subscriber.sent.conversations.messages;
      const current = now.conversations.messages;
      for (let i = 0; i < Math.min(sent.length, current.length); i++) {
        if (sent[i] === current[i]) {
          expect(after.snapshot.conversations.messages[i]).toBe(before.snapshot.conversations.messages[i]);
        }
      }
    }
    subscriber.client = after;
    // Only what was sent moves the base: after an empty diff nothing went out, so the next
    // delta must still be computed against the projection the client holds.
    subscriber.sent = now;
  }
  expect(subscriber.client?.snapshot).toStrictEqual(server.wire(now));
}

describe('reducer against the server (property)', () => {
  it("applying the server's events always reproduces the server's wire snapshot", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        fc.array(command, { minLength: 1, maxLength: 80 }),
        (speeds, commands) => {
          const host = new FakeHost();
          const server = new FakeServer();
          server.publish(host.state);
          const subscribers: Subscriber[] = speeds.map((speed) => ({ sent: null, client: null, speed }));
          let changes = 0;
          for (const c of commands) {
            if (c.t === 'deliver' || c.t === 'disconnect') {
              const target = subscribers[c.sub % subscribers.length]!;
              if (c.t === 'disconnect') target.sent = null;
              else deliver(server, host, target);
              continue;
            }
            host.apply(c);
            server.publish(host.state);
            changes++;
            for (const s of subscribers) if (changes % s.speed === 0) deliver(server, host, s);
          }
          for (const s of subscribers) deliver(server, host, s);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a delta at any other base than the state is refused, whatever it carries', () => {
    const host = new FakeHost();
    const server = new FakeServer();
    server.publish(host.state);
    const start = expectApplied(applyEvent(null, overTheWire(server.eventFor(null, host.state)!)));
    fc.assert(
      fc.property(
        fc.nat({ max: 1_000 }),
        fc.nat({ max: 1_000 }),
        fc.record(
          {
            cut: fc.nat({ max: 3 }),
            ap: fc.array(fc.tuple(fc.string(), fc.nat(), fc.string()), { maxLength: 2 }),
            run: fc.record({ state: fc.constant('idle' as const), messageId: fc.constant(null) }),
          },
          { requiredKeys: [] },
        ),
        (seq, base, fields) => {
          fc.pre(seq !== base);
          const delta: DeltaEvent = { kind: 'delta', seq: base + 1, base, ...fields };
          expect(applyEvent({ ...start, seq }, delta)).toEqual({ kind: 'resync', reason: 'wrong_base' });
        },
      ),
    );
  });
});
