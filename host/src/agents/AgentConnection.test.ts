import os from 'node:os';
import { agent, methods, RequestError, type SessionNotification } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { WorkspaceAuthoriser } from '../workspace/WorkspaceAuthoriser';
import type { AgentClientHandlers } from './AgentClientHandlers';
import type { AgentClientServices } from './AgentClientServices';
import { AgentConnection } from './AgentConnection';
import { AgentError } from './AgentError';
import { Agents } from './Agents';

/** Services that serve nothing: these tests are about the connection, not the workspace. */
const noServices: AgentClientServices = {
  workspaceOf: (cwd) => cwd,
  readTextFile: () => Promise.reject(RequestError.resourceNotFound()),
  writeTextFile: () => Promise.reject(RequestError.resourceNotFound()),
  createTerminal: () => Promise.reject(RequestError.resourceNotFound()),
  terminalOutput: () => {
    throw RequestError.resourceNotFound();
  },
  waitForTerminalExit: () => Promise.reject(RequestError.resourceNotFound()),
  killTerminal: () => Promise.reject(RequestError.resourceNotFound()),
  releaseTerminal: () => Promise.reject(RequestError.resourceNotFound()),
  peekTerminal: () => undefined,
  releaseSession: () => {},
  close: async () => {},
};

function recordingHandlers(answer: (signal: AbortSignal) => Promise<string | undefined>) {
  const updates: SessionNotification[] = [];
  const handlers: AgentClientHandlers = {
    sessionUpdate: (n) => {
      updates.push(n);
    },
    requestPermission: async (_request, signal) => {
      const optionId = await answer(signal);
      return optionId === undefined
        ? { outcome: { outcome: 'cancelled' } }
        : { outcome: { outcome: 'selected', optionId } };
    },
    approveWrite: async () => true,
  };
  return { updates, handlers };
}

/** An agent that streams two chunks, asks one permission, and ends with what was chosen. */
function scriptedAgent(newSession: () => Promise<{ sessionId: string }> = async () => ({ sessionId: 's1' })) {
  return agent({ name: 'scripted' })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: 1,
      agentInfo: { name: 'scripted', version: '1.2.3' },
      agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, newSession)
    .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
      for (const text of ['Hello', ' world']) {
        await client.notify(methods.client.session.update, {
          sessionId: params.sessionId,
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
        });
      }
      const answer = await client.request(methods.client.session.requestPermission, {
        sessionId: params.sessionId,
        toolCall: { toolCallId: 't1', title: 'Edit a.txt' },
        options: [
          { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      });
      return { stopReason: answer.outcome.outcome === 'cancelled' ? 'cancelled' : 'end_turn' };
    })
    .onNotification(methods.agent.session.cancel, () => {});
}

describe('AgentConnection (an agent app in the same process)', () => {
  it('reads initialize and delivers updates in order before prompt resolves', async () => {
    const connection = await AgentConnection.open(scriptedAgent(), {
      name: 'scripted',
      services: noServices,
    });
    expect(connection.info).toMatchObject({ name: 'scripted', version: '1.2.3' });
    expect(connection.info.can).toMatchObject({ load: true, list: true, resume: false });
    const { updates, handlers } = recordingHandlers(async () => 'yes');
    const { sessionId } = await connection.newSession({ cwd: '/tmp', mcpServers: [], handlers });
    const response = await connection.prompt(sessionId, [{ type: 'text', text: 'hi' }]);
    expect(response.stopReason).toBe('end_turn');
    expect(
      updates.map((u) => (u.update.sessionUpdate === 'agent_message_chunk' ? u.update.content : undefined)),
    ).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' world' },
    ]);
    connection.close();
  });

  it('answers a pending permission "cancelled" on cancel, without waiting for the person', async () => {
    const connection = await AgentConnection.open(scriptedAgent(), {
      name: 'scripted',
      services: noServices,
    });
    let asked: () => void = () => {};
    const question = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const { handlers } = recordingHandlers(() => {
      asked();
      return new Promise(() => {}); // nobody answers
    });
    const { sessionId } = await connection.newSession({ cwd: '/tmp', mcpServers: [], handlers });
    const turn = connection.prompt(sessionId, [{ type: 'text', text: 'hi' }]);
    await question;
    await connection.cancel(sessionId);
    expect((await turn).stopReason).toBe('cancelled');
    connection.close();
  });

  it('refuses session/resume the agent does not offer, and rejects calls after close', async () => {
    const connection = await AgentConnection.open(scriptedAgent(), {
      name: 'scripted',
      services: noServices,
    });
    const { handlers } = recordingHandlers(async () => 'yes');
    await expect(
      connection.resumeSession('x', { cwd: '/tmp', mcpServers: [], handlers }),
    ).rejects.toMatchObject({
      kind: 'unsupported',
    });
    connection.close();
    await expect(connection.newSession({ cwd: '/tmp', mcpServers: [], handlers })).rejects.toBeInstanceOf(
      AgentError,
    );
  });
});

describe('updates that overtake the session/new answer', () => {
  it('are kept until the session registers, even after updates of many sessions nobody opens', async () => {
    const early = agent({ name: 'early' })
      .onRequest(methods.agent.initialize, () => ({ protocolVersion: 1 }))
      .onRequest(methods.agent.session.new, async ({ client }) => {
        for (let i = 0; i < 40; i++) {
          await client.notify(methods.client.session.update, {
            sessionId: `stray-${i}`,
            update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'stray' } },
          });
        }
        await client.notify(methods.client.session.update, {
          sessionId: 'mine',
          update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
        });
        return { sessionId: 'mine' };
      });
    const connection = await AgentConnection.open(early, { name: 'early', services: noServices });
    const { updates, handlers } = recordingHandlers(async () => 'yes');
    await connection.newSession({ cwd: '/tmp', mcpServers: [], handlers });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(updates.map((u) => u.update.sessionUpdate)).toEqual(['current_mode_update']);
    connection.close();
  });
});

describe('Agents with an in-process agent app', () => {
  it('starts it on first use, reports its version, and bounds a slow session/new', async () => {
    let slow = false;
    const app = () =>
      scriptedAgent(async () => {
        if (slow) await new Promise(() => {});
        return { sessionId: 's1' };
      });
    const agents = new Agents({
      entries: [{ name: 'inproc', app }],
      authoriser: new WorkspaceAuthoriser([os.tmpdir()]),
      tuning: { requestTimeoutMs: 200 },
    });
    const changes: string[] = [];
    agents.subscribe(() => changes.push(agents.list()[0]?.state ?? ''));
    try {
      const connection = await agents.connection('inproc');
      expect(agents.list()).toEqual([
        { name: 'inproc', title: 'scripted', builtin: false, state: 'ready', version: '1.2.3' },
      ]);
      expect(changes).toEqual(['starting', 'ready']);
      const { handlers } = recordingHandlers(async () => 'yes');
      await connection.newSession({ cwd: os.tmpdir(), mcpServers: [], handlers });
      slow = true;
      await expect(connection.newSession({ cwd: os.tmpdir(), mcpServers: [], handlers })).rejects.toThrow(
        /did not answer session\/new within 0 s|did not answer session\/new/,
      );
      await expect(connection.newSession({ cwd: '/', mcpServers: [], handlers })).rejects.toThrow(
        /not a workspace/,
      );
      await expect(agents.connection('nope')).rejects.toThrow(/no agent "nope"/);
    } finally {
      await agents.close();
    }
  });
});
