import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BridgeClient, createBridgeClient } from '@webbridge/client-sdk';
import type { Snapshot } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeAgentCommand } from '../support/acp/fakeAgentCommand';
import type { FakeAgentScript } from '../support/acp/fakeAgentScript';
import { crash, edit, plan, say, think, turn, update, waitForCancel } from '../support/acp/fakeSteps';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/**
 * Conversations backed by an ACP agent, through the bridge's real HTTP API and the SDK: the
 * scripted fake agent runs as a child process of a real host, as `--agent fake=...` would.
 */

let hosts: TestHost[] = [];
let clients: { close(): void }[] = [];
afterEach(async () => {
  for (const c of clients) c.close();
  clients = [];
  for (const h of hosts) await h.close(true);
  hosts = [];
});

async function start(script: FakeAgentScript, dataDir: string): Promise<TestHost> {
  const command = fakeAgentCommand(script);
  const h = await startTestHost({
    dataDir,
    agents: { entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: undefined }] },
  });
  hosts.push(h);
  return h;
}

function client(h: TestHost): BridgeClient {
  const c = createBridgeClient({ baseUrl: h.url, accessCode: TEST_CODE });
  const connection = c.connect();
  clients.push(connection);
  return c;
}

/** Resolves with the client's state once `predicate` holds (its store follows the event stream). */
function until(c: BridgeClient, predicate: (s: Snapshot) => boolean, timeoutMs = 20_000): Promise<Snapshot> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const snapshot = c.store.getState().snapshot;
      if (snapshot && predicate(snapshot)) {
        clearTimeout(timer);
        unsubscribe();
        resolve(snapshot);
      }
    };
    const timer = setTimeout(() => {
      unsubscribe();
      reject(
        new Error(
          `state not reached: ${JSON.stringify(c.store.getState().snapshot?.conversations.messages)}`,
        ),
      );
    }, timeoutMs);
    const unsubscribe = c.store.subscribe(check);
    check();
  });
}

const idle = (s: Snapshot) =>
  s.conversations.run.state === 'idle' && s.conversations.messages.at(-1)?.status !== 'streaming';

function workspaceOf(dataDir: string): string {
  const folder = join(dataDir, 'workspace');
  mkdirSync(folder, { recursive: true });
  return realpathSync(folder);
}

describe('an ACP agent behind the bridge (fake agent as a child process)', () => {
  it('streams a reply, asks permission on every client, a second client allows, the file and diff are there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-'));
    const file = join(workspaceOf(dataDir), 'notes.txt');
    const h = await start(
      {
        turns: [
          turn(
            think('Looking at the notes'),
            say('I will write the notes.'),
            ...edit({ path: file, newText: 'hello from the agent\n' }),
            say(' Done.'),
          ),
        ],
      },
      dataDir,
    );
    const phone = client(h);
    const laptop = client(h);
    await phone.fetchState();
    await laptop.fetchState();
    await phone.action({ action: 'newConversation', agentId: 'fake' });
    await until(phone, (s) => s.conversations.list[0]?.agentId === 'fake');
    const sent = await phone.send('please write the notes');
    expect(sent.kind).toBe('done');

    const asked = await until(laptop, (s) => s.approvals.length === 1);
    const [approval] = asked.approvals;
    expect(approval?.options?.map((o) => o.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    expect(approval?.diffs).toEqual([{ path: file, oldText: null, newText: 'hello from the agent\n' }]);
    expect(asked.conversations.run.state).toBe('waiting_approval');
    await laptop.action({ action: 'approve', approvalId: approval!.id, decision: 'allow' });

    const done = await until(
      phone,
      (s) => idle(s) && s.conversations.messages.at(-1)?.stopReason === 'end_turn',
    );
    expect(readFileSync(file, 'utf8')).toBe('hello from the agent\n');
    const roles = done.conversations.messages.map((m) => [m.role, m.thought === true ? 'thought' : m.text]);
    expect(roles).toEqual([
      ['user', 'please write the notes'],
      ['assistant', 'thought'],
      ['assistant', 'I will write the notes.'],
      ['tool', expect.any(String)],
      ['assistant', ' Done.'],
    ]);
    const tool = done.conversations.messages.find((m) => m.role === 'tool');
    expect(tool?.agentTool).toMatchObject({ kind: 'edit', status: 'completed' });
    expect(tool?.agentTool?.content).toContainEqual({
      type: 'diff',
      path: file,
      oldText: null,
      newText: 'hello from the agent\n',
    });
    expect(tool?.tool?.decided?.decision).toBe('allow');
    // Both clients hold the server's state.
    const server = await phone.fetchState();
    expect(JSON.stringify(laptop.store.getState().snapshot?.conversations.messages.map((m) => m.text))).toBe(
      JSON.stringify(server.conversations.messages.map((m) => m.text)),
    );
    // A second answer is stale.
    const stale = await fetch(`${h.url}/api/action`, {
      method: 'POST',
      headers: h.auth(),
      body: JSON.stringify({ action: 'approve', approvalId: approval!.id, decision: 'deny' }),
    });
    expect(stale.status).toBe(422);
  });

  it('shows a terminal tool call with its output, and plans and usage in agents.session', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-'));
    const h = await start(
      {
        turns: [
          turn(
            plan([
              ['Run the greeting', 'in_progress'],
              ['Report', 'pending'],
            ]),
            { type: 'terminal', command: 'echo', args: ['hello from a terminal'], toolCallId: 't1' },
            update({ sessionUpdate: 'usage_update', used: 1200, size: 200_000 }),
            say('It printed a greeting.'),
          ),
        ],
      },
      dataDir,
    );
    const phone = client(h);
    await phone.fetchState();
    await phone.action({ action: 'newConversation', agentId: 'fake' });
    await until(phone, (s) => s.conversations.list[0]?.agentId === 'fake');
    await phone.send('greet');
    const done = await until(
      phone,
      (s) => idle(s) && s.conversations.messages.at(-1)?.stopReason === 'end_turn',
    );
    const tool = done.conversations.messages.find((m) => m.agentTool?.kind === 'execute');
    expect(tool?.agentTool?.content[0]?.type).toBe('terminal');
    expect(tool?.text).toContain('hello from a terminal');
    expect(done.agents?.session?.plan.map((e) => e.status)).toEqual(['in_progress', 'pending']);
    expect(done.agents?.session?.usage).toEqual({ used: 1200, size: 200_000 });
  });

  it('an agent that needs a sign-in ends the reply saying so, and the agents list says what to run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-'));
    const command = fakeAgentCommand({
      requireAuth: true,
      authMethods: [{ id: 'login', name: 'Log in', description: 'Run `fake-agent login` on the host' }],
    });
    const h = await startTestHost({
      dataDir,
      agents: {
        entries: [{ name: 'fake', ...command, env: {}, cwd: undefined, signIn: 'fake-agent login' }],
      },
    });
    hosts.push(h);
    const phone = client(h);
    await phone.fetchState();
    await phone.action({ action: 'newConversation', agentId: 'fake' });
    await until(phone, (s) => s.conversations.list[0]?.agentId === 'fake');
    expect((await phone.send('hello')).kind).toBe('done');
    const failed = await until(phone, (s) => s.conversations.messages.at(-1)?.status === 'error');
    expect(failed.conversations.messages.at(-1)?.error).toMatch(/sign in/);
    const listed = await until(
      phone,
      (s) => s.agents?.list.find((a) => a.name === 'fake')?.state === 'needs_sign_in',
    );
    expect(listed.agents?.list.find((a) => a.name === 'fake')?.signIn).toBe('fake-agent login');
  });

  it('stop mid-reply cancels the turn; a crash mid-turn ends the reply with a readable error', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-'));
    const h = await start(
      {
        turns: [
          turn(say('one two three'), waitForCancel()),
          turn(say('about to'), crash('agent exploded: out of cheese', 3)),
        ],
      },
      dataDir,
    );
    const phone = client(h);
    await phone.fetchState();
    await phone.action({ action: 'newConversation', agentId: 'fake' });
    await until(phone, (s) => s.conversations.list[0]?.agentId === 'fake');
    await phone.send('go');
    await until(phone, (s) => s.conversations.messages.at(-1)?.text === 'one two three');
    const stopped = await phone.stop();
    expect(stopped.kind).toBe('done');
    const after = await until(phone, (s) => s.conversations.messages.at(-1)?.stopReason === 'cancelled');
    expect(after.conversations.messages.at(-1)?.status).toBe('stopped');
    expect(after.conversations.run.state).toBe('idle');

    await phone.send('again');
    const failed = await until(phone, (s) => s.conversations.messages.at(-1)?.status === 'error');
    expect(failed.conversations.messages.at(-1)?.error).toMatch(/out of cheese/);
  });

  it('after a host restart the conversation continues (session/load), and a desk session opens with its history', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'webbridge-agent-'));
    const workspace = workspaceOf(dataDir);
    const stateFile = join(dataDir, 'fake-sessions.json');
    const script: FakeAgentScript = {
      stateFile,
      sessions: [
        {
          sessionId: 'desk-1',
          cwd: workspace,
          title: 'Started at the desk',
          history: [
            { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Fix the footer' } },
            { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Footer fixed.' } },
          ],
        },
      ],
    };
    const first = await start(script, dataDir);
    const phone = client(first);
    await phone.fetchState();
    await phone.action({ action: 'newConversation', agentId: 'fake' });
    await until(phone, (s) => s.conversations.list[0]?.agentId === 'fake');
    await phone.send('first');
    await until(phone, (s) => idle(s) && s.conversations.messages.length === 2);
    for (const c of clients) c.close();
    clients = [];
    await first.close();
    hosts = [];

    const second = await start(script, dataDir);
    const again = client(second);
    await again.fetchState();
    await again.send('second');
    const continued = await until(again, (s) => idle(s) && s.conversations.messages.length === 4);
    expect(continued.conversations.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(continued.conversations.messages[3]?.text).toMatch(/second/);

    const { sessions } = await again.action({ action: 'agentSessions', agentId: 'fake' });
    const desk = sessions.find((s) => s.sessionId === 'desk-1');
    expect(desk?.title).toBe('Started at the desk');
    const opened = await again.action({ action: 'openAgentSession', agentId: 'fake', sessionId: 'desk-1' });
    const shown = await until(
      again,
      (s) => s.conversationId === opened.conversationId && s.conversations.messages.length === 2,
    );
    expect(shown.conversations.messages.map((m) => m.text)).toEqual(['Fix the footer', 'Footer fixed.']);
    await again.send('and the header');
    const onward = await until(again, (s) => idle(s) && s.conversations.messages.length === 4);
    expect(onward.conversations.messages[3]?.text).toMatch(/header/);
  });
});
