import { rmSync } from 'node:fs';
import { type ActionName, contract, isSensitiveAction, type Snapshot } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockBackend, type MockBackend } from '../../web/src/mocks/mockBackend';
import { startTestHost, type TestHost } from '../support/testHost';

/** One side of the comparison: the reference host over HTTP, or the web client's mock backend. */
interface Side {
  readonly name: string;
  state(): Promise<Snapshot>;
  act(body: Record<string, unknown>): Promise<{ status: number; code?: string }>;
}

const AUTH = { Authorization: 'Bearer agreement', 'Content-Type': 'application/json' };

function mockSide(backend: MockBackend): Side {
  const call = (path: string, init: RequestInit) => backend.handle(new Request(`http://mock${path}`, init));
  return {
    name: 'mock',
    state: async () => (await (await call(contract.state.path, { headers: AUTH })).json()) as Snapshot,
    act: async (body) => outcome(await call(contract.action.path, post(body))),
  };
}

function hostSide(h: TestHost): Side {
  const call = (path: string, init: RequestInit) => fetch(`${h.url}${path}`, init);
  const auth = h.auth();
  return {
    name: 'host',
    state: async () => (await (await call(contract.state.path, { headers: auth })).json()) as Snapshot,
    act: async (body) => outcome(await call(contract.action.path, { ...post(body), headers: auth })),
  };
}

function post(body: Record<string, unknown>): RequestInit {
  return { method: 'POST', headers: AUTH, body: JSON.stringify(body) };
}

async function outcome(response: Response): Promise<{ status: number; code?: string }> {
  const body = (await response.json()) as { code?: string };
  return response.ok ? { status: response.status } : { status: response.status, code: body.code ?? '' };
}

/** An action with the session guard of `state` when the contract says it needs one. */
function withGuard(state: Snapshot, action: Record<string, unknown> & { action: ActionName }) {
  const full = { ...action, sessionRevision: state.sessionRevision, conversationId: state.conversationId };
  return isSensitiveAction({ ...full, projectId: state.projectId } as never)
    ? { ...full, projectId: state.projectId }
    : action;
}

/** Waits until nothing runs on that side. */
async function idle(side: Side): Promise<Snapshot> {
  for (let i = 0; i < 400; i++) {
    const state = await side.state();
    if (state.conversations.run.state === 'idle') return state;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${side.name} did not become idle`);
}

/** A probe: steps that set a state up, then the action whose outcome both sides must share. */
interface Probe {
  readonly setup?: (side: Side) => Promise<void>;
  readonly action: (state: Snapshot) => Record<string, unknown> & { action: ActionName };
}

const exchange = async (side: Side) => {
  await side.act(withGuard(await idle(side), { action: 'send', text: 'one two' }));
  await idle(side);
};

/** A tool call that waited for approval and was allowed. */
const answered = async (side: Side) => {
  await side.act(
    withGuard(await idle(side), {
      action: 'send',
      text: '/tool write_file {"path":"agree.txt","content":"x"}',
    }),
  );
  let state = await side.state();
  for (let i = 0; i < 400 && state.approvals.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    state = await side.state();
  }
  await side.act({ action: 'approve', approvalId: state.approvals[0]?.id ?? '', decision: 'allow' });
  await idle(side);
};

/** A reply stopped mid-stream: a long send, stopped at once. */
const stopped = async (side: Side) => {
  const state = await idle(side);
  await side.act(withGuard(state, { action: 'send', text: 'w '.repeat(2_000) }));
  await side.act(withGuard(await side.state(), { action: 'stop' }));
  await idle(side);
};

/**
 * Every action of the contract, each in a state where the host's rule decides: the mock must
 * answer as the host does (the same status and problem code). The Record's type makes a new
 * action fail to compile until it has a probe here.
 */
const PROBES: Record<ActionName, readonly Probe[]> = {
  send: [
    { action: () => ({ action: 'send', text: 'hello' }) },
    { action: () => ({ action: 'send', text: '  ' }) },
  ],
  stop: [{ action: () => ({ action: 'stop' }) }],
  continue: [
    { action: () => ({ action: 'continue' }) },
    { setup: exchange, action: () => ({ action: 'continue' }) },
    { setup: stopped, action: () => ({ action: 'continue' }) },
  ],
  workspace: [{ action: () => ({ action: 'workspace', uri: 'file:///etc' }) }],
  model: [
    { action: (s) => ({ action: 'model', modelId: s.models.current }) },
    { action: () => ({ action: 'model', modelId: 'no-such-model' }) },
  ],
  branch: [
    {
      setup: exchange,
      action: (s) => ({ action: 'branch', messageId: s.conversations.messages[0]!.id, index: 5 }),
    },
    { action: () => ({ action: 'branch', messageId: 'no-such-message', index: 0 }) },
  ],
  editMessage: [
    {
      setup: exchange,
      action: (s) => ({ action: 'editMessage', messageId: s.conversations.messages.at(-1)!.id, text: 'x' }),
    },
    { action: () => ({ action: 'editMessage', messageId: 'no-such-message', text: 'x' }) },
  ],
  regenerate: [
    { setup: exchange, action: () => ({ action: 'regenerate' }) },
    { action: () => ({ action: 'regenerate' }) },
  ],
  newConversation: [{ action: () => ({ action: 'newConversation' }) }],
  selectConversation: [
    { action: (s) => ({ action: 'selectConversation', conversationId: s.conversationId }) },
    { action: () => ({ action: 'selectConversation', conversationId: 'no-such-conversation' }) },
  ],
  renameConversation: [
    { action: (s) => ({ action: 'renameConversation', conversationId: s.conversationId, title: 'T' }) },
    { action: () => ({ action: 'renameConversation', conversationId: 'no-such-conversation', title: 'T' }) },
  ],
  deleteConversation: [
    { action: (s) => ({ action: 'deleteConversation', conversationId: s.conversationId }) },
    { action: () => ({ action: 'deleteConversation', conversationId: 'no-such-conversation' }) },
  ],
  selectProject: [
    { action: (s) => ({ action: 'selectProject', projectId: s.projectId }) },
    { action: () => ({ action: 'selectProject', projectId: 'no-such-project' }) },
  ],
  approve: [
    { action: () => ({ action: 'approve', approvalId: 'no-such-approval', decision: 'allow' }) },
    // A late answer to an approval answered already: 422 on both sides, naming what happened.
    {
      setup: answered,
      action: (s) => ({
        action: 'approve',
        approvalId: s.conversations.messages.find((m) => m.tool?.decided)?.tool?.approvalId ?? '',
        decision: 'deny',
      }),
    },
  ],
  updateSettings: [{ action: () => ({ action: 'updateSettings', settings: { theme: 'dark' } }) }],
  removeAttachment: [{ action: () => ({ action: 'removeAttachment', attachmentId: 'no-such-attachment' }) }],
  refreshMedia: [{ action: () => ({ action: 'refreshMedia', attachmentId: 'no-such-attachment' }) }],
  pushStatus: [{ action: () => ({ action: 'pushStatus' }) }],
  subscribePush: ['https://93.184.216.34/send/abc', 'http://93.184.216.34/send/abc'].map((endpoint) => ({
    action: () => ({
      action: 'subscribePush' as const,
      subscription: { endpoint, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' } },
      choices: { approvals: true, replies: false },
    }),
  })),
  unsubscribePush: [{ action: () => ({ action: 'unsubscribePush' }) }],
  reportPresence: [{ action: () => ({ action: 'reportPresence', visible: true }) }],
};

describe('the web mocks agree with the host on every action', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ echoDelayMs: 1 });
  });
  afterAll(async () => {
    await host?.close();
    if (host) rmSync(host.dataDir, { recursive: true, force: true });
  });

  for (const [name, probes] of Object.entries(PROBES)) {
    probes.forEach((probe, i) => {
      it(`${name} #${i + 1}`, async () => {
        // A fresh conversation on the host, a fresh mock: both start from an empty conversation.
        const hostSide_ = hostSide(host);
        await idle(hostSide_);
        await hostSide_.act(withGuard(await hostSide_.state(), { action: 'newConversation' }));
        const mock = mockSide(createMockBackend({ wordDelayMs: 1 }));
        await mock.act(withGuard(await mock.state(), { action: 'newConversation' }));
        const outcomes = [];
        for (const side of [hostSide_, mock]) {
          await probe.setup?.(side);
          const state = await idle(side);
          outcomes.push(await side.act(withGuard(state, probe.action(state))));
        }
        expect(outcomes[1], JSON.stringify(probe.action.toString())).toEqual(outcomes[0]);
      });
    });
  }
});
