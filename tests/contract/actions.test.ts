import {
  ACTION_NAMES,
  type ActionName,
  type ActionOf,
  actionResponseSchema,
  actionResultSchemas,
  type Snapshot,
} from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import { act, getState, guardOf, postAction, sendAndWait, waitFor } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';

interface Ctx {
  h: TestHost;
  state: Snapshot;
  attachmentId?: string;
}

/**
 * One valid call of every action, in the order the scenario runs them. The mapped type makes
 * the compiler demand an entry when an action is added to the contract.
 */
const SCENARIO: { [N in ActionName]: (ctx: Ctx) => Promise<ActionOf<N>> | ActionOf<N> } = {
  newConversation: () => ({ action: 'newConversation', title: 'Contract run' }),
  renameConversation: ({ state }) => ({
    action: 'renameConversation',
    conversationId: state.conversationId,
    title: 'Renamed',
  }),
  updateSettings: () => ({ action: 'updateSettings', settings: { theme: 'dark' } }),
  model: ({ state }) => ({ action: 'model', modelId: 'echo', ...guardOf(state) }),
  workspace: ({ state }) => ({ action: 'workspace', uri: state.projects.roots[0]!.uri, ...guardOf(state) }),
  send: async ({ h }) => {
    await upload(h, 'note.txt', 'attached text');
    const state = await getState(h);
    return { action: 'send', text: 'first message', ...guardOf(state) };
  },
  refreshMedia: async (ctx) => {
    const state = await waitIdle(ctx.h);
    const withFile = state.conversations.messages.find((m) => m.attachments.length > 0);
    return { action: 'refreshMedia', attachmentId: withFile!.attachments[0]!.id };
  },
  removeAttachment: async (ctx) => {
    const { attachment } = await upload(ctx.h, 'drop.txt', 'to be removed');
    return { action: 'removeAttachment', attachmentId: attachment.id };
  },
  regenerate: async ({ h }) => ({ action: 'regenerate', ...guardOf(await waitIdle(h)) }),
  editMessage: async ({ h }) => {
    const state = await waitIdle(h);
    const user = state.conversations.messages.find((m) => m.role === 'user')!;
    return { action: 'editMessage', messageId: user.id, text: 'edited message', ...guardOf(state) };
  },
  branch: async ({ h }) => {
    const state = await waitIdle(h);
    const user = state.conversations.messages.find((m) => m.role === 'user')!;
    expect(user.sibling.count).toBe(2);
    return { action: 'branch', messageId: user.id, index: 0, ...guardOf(state) };
  },
  stop: async ({ h }) => {
    const state = await waitIdle(h);
    await act(h, {
      action: 'send',
      text: Array.from({ length: 400 }, (_, i) => `w${i}`).join(' '),
      ...guardOf(state),
    });
    const streaming = await waitFor(async () => {
      const s = await getState(h);
      return s.conversations.run.state === 'streaming' ? s : undefined;
    });
    return { action: 'stop', ...guardOf(streaming) };
  },
  continue: async ({ h }) => {
    const state = await getState(h);
    expect(state.conversations.messages.at(-1)?.status).toBe('stopped');
    return { action: 'continue', ...guardOf(state) };
  },
  approve: async ({ h }) => {
    const state = await waitIdle(h);
    await act(h, {
      action: 'send',
      text: '/tool write_file {"path":"contract.txt","content":"ok"}',
      ...guardOf(state),
    });
    const waiting = await waitFor(async () => {
      const s = await getState(h);
      return s.approvals.length > 0 ? s : undefined;
    });
    return { action: 'approve', approvalId: waiting.approvals[0]!.id, decision: 'allow' };
  },
  selectProject: ({ state }) => ({ action: 'selectProject', projectId: state.projectId }),
  selectConversation: ({ state }) => ({
    action: 'selectConversation',
    conversationId: state.conversations.list[0]!.id,
  }),
  deleteConversation: ({ state }) => ({ action: 'deleteConversation', conversationId: state.conversationId }),
  pushStatus: () => ({ action: 'pushStatus' }),
  subscribePush: () => ({
    action: 'subscribePush',
    subscription: {
      endpoint: 'https://93.184.216.34/push/contract',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
    },
    choices: { approvals: true, replies: true },
  }),
  unsubscribePush: () => ({ action: 'unsubscribePush' }),
  reportPresence: () => ({ action: 'reportPresence', visible: true }),
  // The agent actions, in a conversation backed by the scripted fake ACP agent.
  agentMode: async ({ h }) => {
    await act(h, { action: 'newConversation', agentId: 'fake' });
    return { action: 'agentMode', ...guardOf(await getState(h)), modeId: 'code' };
  },
  agentOption: ({ state }) => ({
    action: 'agentOption',
    ...guardOf(state),
    optionId: 'model',
    value: 'large',
  }),
  agentSessions: () => ({ action: 'agentSessions', agentId: 'fake' }),
  openAgentSession: ({ state }) => ({
    action: 'openAgentSession',
    agentId: 'fake',
    sessionId: 'desk-1',
    projectId: state.projectId,
  }),
};

/** The fake agent the agent actions run against: two modes, a model setting, a session from the desk. */
const FAKE_AGENT = fakeAgentCommand({
  modes: {
    currentModeId: 'ask',
    availableModes: [
      { id: 'ask', name: 'Ask' },
      { id: 'code', name: 'Code' },
    ],
  },
  configOptions: [
    {
      id: 'model',
      name: 'Model',
      type: 'select',
      currentValue: 'small',
      options: [
        { value: 'small', name: 'Small' },
        { value: 'large', name: 'Large' },
      ],
    },
  ],
  sessions: [{ sessionId: 'desk-1', cwd: '/desk', title: 'From the desk', history: [] }],
});

/**
 * Actions only a paired device can take: sent here with the access code, they are refused
 * (422), and their results are checked where a device sends them (tests/host/push.test.ts).
 */
const DEVICE_ONLY: ReadonlySet<ActionName> = new Set(['subscribePush']);

async function upload(h: TestHost, name: string, text: string) {
  const response = await fetch(`${h.url}/api/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { ...h.auth(), 'Content-Type': 'text/plain' },
    body: text,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { attachment: { id: string } };
}

async function waitIdle(h: TestHost): Promise<Snapshot> {
  return waitFor(async () => {
    const s = await getState(h);
    return s.conversations.run.state === 'idle' ? s : undefined;
  }, 10_000);
}

describe('every action of the contract', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost({
      echoDelayMs: 2,
      agents: { entries: [{ name: 'fake', ...FAKE_AGENT, env: {}, cwd: undefined, signIn: undefined }] },
    });
    await sendAndWait(h, 'warm up');
  });
  afterAll(() => h.close(true));

  it('has a scenario entry for each action in the union', () => {
    expect(Object.keys(SCENARIO).sort()).toEqual([...ACTION_NAMES].sort());
  });

  for (const name of Object.keys(SCENARIO) as ActionName[]) {
    it(`${name}: the host handles it and its result matches the contract`, async () => {
      const state = await getState(h);
      const build = SCENARIO[name] as (ctx: Ctx) => Promise<ActionOf<ActionName>> | ActionOf<ActionName>;
      const action = await build({ h, state });
      const response = await postAction(h, action);
      const body = await response.json();
      if (DEVICE_ONLY.has(name)) {
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect((body as { detail?: string }).detail).toMatch(/needs a paired device/);
        return;
      }
      expect(response.status, JSON.stringify(body)).toBe(200);
      const parsed = actionResponseSchema.parse(body);
      expect(parsed.action).toBe(name);
      actionResultSchemas[name].parse(parsed.result);
    });
  }
});
