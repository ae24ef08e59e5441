import fs from 'node:fs';
import path from 'node:path';
import type { Projection } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agents } from '../agents/Agents';
import { agentController } from '../testing/agentController';
import { MINI_OPTIONS, type MiniAgentOptions, miniAgent } from '../testing/miniAgent';
import { onMain, testController, waitForState } from '../testing/testController';
import { deviceDecider } from './approvalDecision';
import type { ChatController } from './ChatController';
import type { OpenChatControllerOptions } from './openChatController';

let open: { controller: ChatController; agents?: Agents }[] = [];
afterEach(async () => {
  for (const { controller, agents } of open) {
    controller.close();
    await agents?.close();
  }
  open = [];
});

function setUp(
  options: MiniAgentOptions = {},
  dataDir?: string,
  more: Partial<OpenChatControllerOptions> = {},
) {
  const mini = miniAgent(options);
  const made = agentController([{ name: 'mini', app: mini.app }], {
    ...more,
    ...(dataDir === undefined ? {} : { dataDir }),
  });
  open.push(made);
  return { ...made, mini };
}

const idle = (state: Projection) =>
  state.conversations.run.state === 'idle' && state.conversations.messages.at(-1)?.status !== 'streaming';

describe('a conversation backed by an ACP agent', () => {
  it('streams the agent message chunks into the reply as appends, and records the stop reason', async () => {
    const { controller } = setUp({
      turn: async (t) => {
        await t.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Thinking' } });
        await t.say('Hello there friend');
        await t.update({
          sessionUpdate: 'plan',
          entries: [{ content: 'Say hello', priority: 'high', status: 'completed' }],
        });
        return 'end_turn';
      },
    });
    const appended: string[] = [];
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    // The session opens at once: its modes and settings show before the first send.
    const before = await waitForState(controller, (s) => s.agents?.session?.modes?.current === 'ask');
    expect(before.agents?.session?.configOptions.map((o) => o.id)).toEqual(['model']);
    expect(before.conversations.list[0]?.agentId).toBe('mini');
    expect(before.agents?.list.map((a) => a.name)).toEqual(['builtin', 'mini']);
    let last = controller.readState();
    controller.subscribe(() => {
      const next = controller.readState();
      const a = last.conversations.messages.at(-1);
      const b = next.conversations.messages.at(-1);
      if (a && b && a.id === b.id && b.text.length > a.text.length)
        appended.push(b.text.slice(a.text.length));
      last = next;
    });
    await onMain(controller, () => controller.messages.send('hi'));
    const state = await waitForState(controller, (s) => idle(s) && s.conversations.messages.length >= 3);
    const [user, thought, answer] = state.conversations.messages;
    expect(user?.text).toBe('hi');
    expect(thought).toMatchObject({ role: 'assistant', thought: true, text: 'Thinking', status: 'complete' });
    expect(answer).toMatchObject({ role: 'assistant', text: 'Hello there friend', stopReason: 'end_turn' });
    expect(answer?.model).toBeUndefined();
    // The thought goes into the empty reply, the answer's first word makes its message, the rest append.
    expect(appended).toEqual(['Thinking', 'there ', 'friend']);
    expect(state.agents?.session).toMatchObject({
      agentId: 'mini',
      canContinue: true,
      modes: { current: 'ask' },
      plan: [{ content: 'Say hello', status: 'completed' }],
    });
  });

  it('lets the prompt leave before it publishes the send, and shows the send to whoever reads first', async () => {
    let prompted = false;
    const { controller } = setUp({
      turn: async (t) => {
        prompted = true;
        await t.say('Hi');
        return 'end_turn';
      },
    });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await waitForState(controller, (s) => s.agents?.session?.modes?.current === 'ask');
    let promptedAtPublish: boolean | undefined;
    controller.subscribe(() => {
      if (promptedAtPublish === undefined && controller.readState().conversations.messages.length > 0)
        promptedAtPublish = prompted;
    });
    // Read in the same task as the send: the state already holds it.
    const seen = await onMain(controller, () => {
      controller.messages.send('hello');
      return controller.readState().conversations.messages.map((m) => m.role);
    });
    expect(seen).toEqual(['user', 'assistant']);
    await onMain(controller, () => controller.messages.stop());
    await waitForState(controller, idle);
    promptedAtPublish = undefined;
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await waitForState(controller, (s) => s.agents?.session?.modes?.current === 'ask');
    prompted = false;
    await onMain(controller, () => controller.messages.send('again'));
    await waitForState(controller, (s) => idle(s) && s.conversations.messages.at(-1)?.text === 'Hi');
    expect(promptedAtPublish).toBe(true);
  });

  it('turns a permission request into an approval with the agent options and diff, answered by option', async () => {
    const { controller, dataDir } = setUp({
      turn: async (t) => {
        const file = path.join(dataDir, 'workspace', 'a.txt');
        await t.update({
          sessionUpdate: 'tool_call',
          toolCallId: 'w1',
          title: 'Write a.txt',
          kind: 'edit',
          status: 'pending',
          locations: [{ path: file }],
          content: [{ type: 'diff', path: file, oldText: null, newText: 'new' }],
        });
        const answer = await t.ask({ toolCallId: 'w1' });
        if (answer.outcome.outcome !== 'selected' || answer.outcome.optionId !== 'always') return 'refusal';
        await t.write(file, 'new');
        await t.update({ sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'completed' });
        await t.say('Done');
        return 'end_turn';
      },
    });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await onMain(controller, () => controller.messages.send('write it'));
    const waiting = await waitForState(controller, (s) => s.approvals.length === 1);
    const [approval] = waiting.approvals;
    expect(waiting.conversations.run.state).toBe('waiting_approval');
    expect(approval?.options?.map((o) => o.kind)).toEqual(MINI_OPTIONS.map((o) => o.kind));
    expect(approval?.diffs).toEqual([
      { path: path.join(dataDir, 'workspace', 'a.txt'), oldText: null, newText: 'new' },
    ]);
    await expect(
      onMain(controller, () => controller.approvals.approve(approval!.id, 'deny', undefined, 'always')),
    ).rejects.toThrow(/does not deny/);
    const pixel = deviceDecider({ id: 'd1', name: 'Pixel 7' });
    const result = await onMain(controller, () =>
      controller.approvals.approve(approval!.id, 'allow', pixel, 'always'),
    );
    expect(result.optionId).toBe('always');
    const done = await waitForState(
      controller,
      (s) => idle(s) && s.conversations.messages.at(-1)?.text === 'Done',
    );
    expect(fs.readFileSync(path.join(dataDir, 'workspace', 'a.txt'), 'utf8')).toBe('new');
    const tool = done.conversations.messages.find((m) => m.role === 'tool');
    expect(tool?.agentTool).toMatchObject({ id: 'w1', kind: 'edit', status: 'completed' });
    expect(tool?.tool?.decided).toMatchObject({ decision: 'allow', by: { kind: 'device', name: 'Pixel 7' } });
    // A second answer is stale: 422 naming the first.
    await expect(
      onMain(controller, () => controller.approvals.approve(approval!.id, 'allow')),
    ).rejects.toThrow(/already allowed on Pixel 7/);
  });

  it('ends the tool calls the agent never finished when its turn ends; no empty reply above the first', async () => {
    const { controller } = setUp({
      turn: async (t) => {
        await t.update({
          sessionUpdate: 'tool_call',
          toolCallId: 'r1',
          title: 'Read',
          kind: 'read',
          status: 'in_progress',
        });
        await t.say('Read it.');
        return 'end_turn';
      },
    });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await onMain(controller, () => controller.messages.send('read'));
    const state = await waitForState(
      controller,
      (s) => s.conversations.messages.at(-1)?.stopReason === 'end_turn',
    );
    // The turn began with a tool call: the reply the send made became it, no empty bubble stays.
    expect(state.conversations.messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ['user', 'read', 'complete'],
      ['tool', '', 'complete'],
      ['assistant', 'Read it.', 'complete'],
    ]);
  });

  it('stop cancels the turn and answers a pending permission request cancelled', async () => {
    const outcomes: string[] = [];
    const { controller } = setUp({
      turn: async (t) => {
        await t.say('Starting');
        const answer = await t.ask({ toolCallId: 'x', title: 'Run rm', kind: 'execute', status: 'pending' });
        outcomes.push(answer.outcome.outcome);
        return 'end_turn';
      },
    });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await onMain(controller, () => controller.messages.send('go'));
    const waiting = await waitForState(controller, (s) => s.approvals.length === 1);
    expect(await onMain(controller, () => controller.messages.stop())).toEqual({ stopped: true });
    const state = await waitForState(
      controller,
      (s) => s.conversations.messages.at(-1)?.stopReason === 'cancelled',
    );
    expect(outcomes).toEqual(['cancelled']);
    expect(state.approvals).toEqual([]);
    expect(state.conversations.run.state).toBe('idle');
    await expect(
      onMain(controller, () => controller.approvals.approve(waiting.approvals[0]!.id, 'allow')),
    ).rejects.toThrow(/cancelled/);
  });

  it('cancels the approval when the agent withdraws its question ($/cancel_request)', async () => {
    const outcomes: string[] = [];
    const { controller } = setUp({
      turn: async (t) => {
        const withdraw = new AbortController();
        setTimeout(() => withdraw.abort(), 300);
        const answer = await t.ask(
          { toolCallId: 'q', title: 'Delete it', kind: 'delete' },
          MINI_OPTIONS,
          withdraw.signal,
        );
        outcomes.push(answer.outcome.outcome);
        await t.say('Never mind.');
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return 'end_turn';
      },
    });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await onMain(controller, () => controller.messages.send('go'));
    const asked = await waitForState(controller, (s) => s.approvals.length === 1);
    // While the turn still runs, the withdrawn question is no longer asked anywhere.
    const state = await waitForState(
      controller,
      (s) => s.conversations.messages.at(-1)?.text === 'Never mind.',
    );
    expect(state.conversations.run.state).toBe('streaming');
    expect(outcomes).toEqual(['cancelled']);
    expect(state.approvals).toEqual([]);
    expect(state.conversations.messages.find((m) => m.role === 'tool')?.status).toBe('stopped');
    await expect(
      onMain(controller, () => controller.approvals.approve(asked.approvals[0]!.id, 'allow')),
    ).rejects.toThrow(/cancelled/);
  });

  it('drops what a stopped turn still sends, and the next turn waits for its answer', async () => {
    const { controller } = setUp({
      turn: async (t) => {
        if (t.text !== 'first') {
          await t.say(`Answer to ${t.text}`);
          return 'end_turn';
        }
        await t.say('one');
        await new Promise<void>((resolve) =>
          t.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        await t.say('late words');
        return 'cancelled';
      },
    });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await onMain(controller, () => controller.messages.send('first'));
    await waitForState(controller, (s) => s.conversations.messages.at(-1)?.text === 'one');
    await onMain(controller, () => controller.messages.stop());
    await onMain(controller, () => controller.messages.send('second'));
    const state = await waitForState(
      controller,
      (s) => idle(s) && s.conversations.messages.at(-1)?.stopReason === 'end_turn',
    );
    expect(state.conversations.messages.map((m) => [m.text, m.stopReason])).toEqual([
      ['first', undefined],
      ['one', 'cancelled'],
      ['second', undefined],
      ['Answer to second', 'end_turn'],
    ]);
  });

  it("opens the session in the project's folder with the host's MCP servers the agent takes", async () => {
    const stdio = { name: 'files', command: '/usr/bin/files-mcp', args: [], env: [] };
    const http = { type: 'http' as const, name: 'remote', url: 'http://127.0.0.1:9/mcp', headers: [] };
    const { controller, mini, dataDir } = setUp({}, undefined, { agentMcpServers: [stdio, http] });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await waitForState(controller, (s) => s.agents?.session?.modes !== undefined);
    // The mini agent does not say it takes MCP over HTTP: only the stdio server goes.
    expect(mini.opened).toEqual([
      { cwd: fs.realpathSync(path.join(dataDir, 'workspace')), mcpServers: [stdio] },
    ]);
  });

  it('refuses to fork an agent conversation and names an unknown agent', async () => {
    const { controller } = setUp();
    await expect(
      onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'nobody')),
    ).rejects.toThrow(/no such agent/);
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await onMain(controller, () => controller.messages.send('hello'));
    await waitForState(controller, (s) => idle(s) && s.conversations.messages.length === 2);
    await expect(onMain(controller, () => controller.messages.regenerate())).rejects.toThrow(
      /only goes forward/,
    );
  });

  it('switches modes and settings, lists sessions and opens one started elsewhere with its history', async () => {
    const { controller, dataDir } = setUp({
      listed: [{ sessionId: 'desk-1', cwd: '', title: 'From the desk' }],
      history: [
        { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Fix the bug' } },
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Fixed ' } },
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'it.' } },
      ],
    });
    await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
    await onMain(controller, () => controller.messages.send('hello'));
    await waitForState(controller, (s) => idle(s) && s.conversations.messages.length === 2);
    await controller.executor.run(() => controller.agents.setMode('code'));
    expect(controller.readState().agents?.session?.modes?.current).toBe('code');
    const options = await controller.executor.run(() => controller.agents.setOption('model', 'large'));
    expect(options.configOptions[0]?.currentValue).toBe('large');
    const { sessions } = await controller.executor.run(() => controller.agents.listSessions('mini'));
    expect(sessions.map((s) => s.sessionId)).toEqual(['desk-1', 'mini-1']);
    expect(sessions[1]?.conversationId).toBe(controller.readState().conversationId);
    const workspace = fs.realpathSync(path.join(dataDir, 'workspace'));
    const opened = await controller.executor.run(() => {
      const project = controller.readState().projectId;
      return controller.agents.openSession('mini', 'desk-1', project);
    });
    const state = controller.readState();
    expect(state.conversationId).toBe(opened.conversationId);
    expect(state.conversations.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'Fix the bug'],
      ['assistant', 'Fixed it.'],
    ]);
    expect(state.conversations.list.find((c) => c.id === opened.conversationId)?.title).toBe('From the desk');
    expect(workspace).toBeTruthy();
  });

  it('after a restart reopens the session with session/load, without duplicating its history', async () => {
    const first = setUp({
      history: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'old' } }],
    });
    await onMain(first.controller, () =>
      first.controller.conversations.newConversation(undefined, undefined, 'mini'),
    );
    await onMain(first.controller, () => first.controller.messages.send('one'));
    await waitForState(first.controller, (s) => idle(s) && s.conversations.messages.length === 2);
    first.controller.close();
    await first.agents.close();
    open = [];
    const second = setUp(
      { history: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'old' } }] },
      first.dataDir,
    );
    await onMain(second.controller, () => second.controller.messages.send('two'));
    const state = await waitForState(
      second.controller,
      (s) => idle(s) && s.conversations.messages.length === 4,
    );
    expect(state.conversations.messages.map((m) => m.text)).toEqual([
      'one',
      'You said: one',
      'two',
      'You said: two',
    ]);
  });

  it('after a restart shows the modes and settings of the open agent conversation before any send', async () => {
    const first = setUp();
    const made = await onMain(first.controller, () =>
      first.controller.conversations.newConversation(undefined, undefined, 'mini'),
    );
    await onMain(first.controller, () => first.controller.messages.send('one'));
    await waitForState(first.controller, (s) => idle(s) && s.conversations.messages.length === 2);
    // A second, built-in conversation, so that selecting the agent's one is a move too.
    await onMain(first.controller, () => first.controller.conversations.newConversation());
    first.controller.close();
    await first.agents.close();
    open = [];
    const second = setUp({}, first.dataDir);
    await onMain(second.controller, () =>
      second.controller.conversations.selectConversation(made.conversationId),
    );
    const state = await waitForState(second.controller, (s) => s.agents?.session?.modes?.current === 'ask');
    expect(state.agents?.session?.configOptions.map((o) => o.id)).toEqual(['model']);
    expect(state.conversations.messages.map((m) => m.text)).toEqual(['one', 'You said: one']);
  });

  it('says an agent conversation cannot continue when its agent cannot reopen sessions', async () => {
    const first = setUp({ load: false });
    await onMain(first.controller, () =>
      first.controller.conversations.newConversation(undefined, undefined, 'mini'),
    );
    await onMain(first.controller, () => first.controller.messages.send('one'));
    await waitForState(first.controller, (s) => idle(s) && s.conversations.messages.length === 2);
    first.controller.close();
    await first.agents.close();
    open = [];
    const second = setUp({ load: false }, first.dataDir);
    await onMain(second.controller, () => second.controller.messages.send('two'));
    const state = await waitForState(second.controller, (s) => s.agents?.session?.canContinue === false);
    expect(state.agents?.session?.reason).toMatch(/cannot reopen a session/);
    expect(state.conversations.list[0]?.unavailable).toMatch(/cannot reopen/);
  });

  it('sends attachments as prompt blocks the agent takes, and refuses with 422 what it cannot take', async () => {
    for (const image of [false, true]) {
      const { controller, dataDir, mini } = setUp({ image });
      await onMain(controller, () => controller.conversations.newConversation(undefined, undefined, 'mini'));
      await onMain(controller, () => controller.messages.send('hello'));
      await waitForState(controller, (s) => idle(s) && s.conversations.messages.length === 2);
      const file = path.join(dataDir, 'dot.png');
      fs.writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      await onMain(controller, () =>
        controller.attachments.add({ path: file, name: 'dot.png', type: 'image/png', size: 4 }),
      );
      const sending = onMain(controller, () => controller.messages.send('look'));
      if (!image) {
        await expect(sending).rejects.toThrow(/cannot take images: send it without "dot.png"/);
        expect(controller.readState().conversations.messages).toHaveLength(2);
        expect(controller.readState().conversations.pending).toHaveLength(1);
        continue;
      }
      await sending;
      await waitForState(controller, (s) => idle(s) && s.conversations.messages.length === 4);
      expect(mini.prompts.at(-1)).toBe('look[image]');
    }
  });

  it('leaves the built-in path as it was: no agent fields on its messages', async () => {
    const { controller } = testController();
    open.push({ controller });
    await onMain(controller, () => controller.messages.send('hello'));
    const state = await waitForState(controller, idle);
    expect(state.conversations.list[0]?.agentId).toBe('builtin');
    expect(state.agents).toEqual({
      list: [{ name: 'builtin', title: 'Built-in', builtin: true, state: 'ready' }],
    });
    for (const message of state.conversations.messages) {
      expect(Object.keys(message)).not.toContain('thought');
      expect(Object.keys(message)).not.toContain('stopReason');
    }
  });
});
