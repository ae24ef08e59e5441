import { describe, expect, it } from 'vitest';
import { createBridgeClient } from './client';
import { createStore } from './store';
import { jsonResponse, scriptedFetch } from './testing/fakeFetch';
import { message, snapshot } from './testing/fixtures';

function setup(answers: unknown[]) {
  const { fetch, requests } = scriptedFetch(answers.map((body) => () => jsonResponse(200, body)));
  const store = createStore();
  store.replaceSnapshot(snapshot([message('a')]));
  let ids = 0;
  const client = createBridgeClient({
    baseUrl: 'http://bridge.test',
    accessCode: 'k7-plum',
    fetch,
    store,
    createActionId: () => `action-id-${++ids}`,
  });
  const bodies = () => requests.map((r) => JSON.parse(String(r.body)) as Record<string, unknown>);
  return { client, bodies };
}

describe('createBridgeClient: the agent actions', () => {
  it('switches the mode and a setting of the current session, with the identity of the state shown', async () => {
    const option = { id: 'model', name: 'Model', type: 'select', currentValue: 'fast', options: [] };
    const { client, bodies } = setup([
      { action: 'agentMode', result: { modeId: 'code' } },
      { action: 'agentOption', result: { configOptions: [option] } },
    ]);
    expect(await client.agentMode('code')).toEqual({ kind: 'done', result: { modeId: 'code' } });
    const set = await client.agentOption('model', 'fast');
    expect(set.kind === 'done' ? set.result.configOptions.map((o) => o.id) : set).toEqual(['model']);
    const identity = { instanceId: 'instance-1', sessionRevision: 1, conversationId: 'c1', projectId: 'p1' };
    expect(bodies()).toEqual([
      { action: 'agentMode', modeId: 'code', ...identity, actionId: 'action-id-1' },
      { action: 'agentOption', optionId: 'model', value: 'fast', ...identity, actionId: 'action-id-2' },
    ]);
  });

  it("lists an agent's sessions and opens one in a project", async () => {
    const listed = { sessionId: 's1', cwd: '/home/me/site', title: 'From the desk' };
    const { client, bodies } = setup([
      { action: 'agentSessions', result: { sessions: [listed] } },
      { action: 'openAgentSession', result: { conversationId: 'c9' } },
      { action: 'openAgentSession', result: { conversationId: 'c9' } },
    ]);
    expect(await client.agentSessions('opencode')).toEqual({ sessions: [listed] });
    expect(await client.openAgentSession('opencode', 's1', 'p2')).toEqual({ conversationId: 'c9' });
    await client.openAgentSession('opencode', 's1');
    expect(bodies()).toEqual([
      { action: 'agentSessions', agentId: 'opencode', actionId: 'action-id-1' },
      {
        action: 'openAgentSession',
        agentId: 'opencode',
        sessionId: 's1',
        projectId: 'p2',
        actionId: 'action-id-2',
      },
      { action: 'openAgentSession', agentId: 'opencode', sessionId: 's1', actionId: 'action-id-3' },
    ]);
  });
});
