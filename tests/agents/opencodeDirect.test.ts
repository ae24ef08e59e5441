import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpencodeProject, type OpencodeProject } from '../support/acp/opencodeProject';
import { createRecordingClient, type RecordingClient } from '../support/acp/recordingClient';
import {
  answer,
  SCRIPTED_TITLE,
  type ScriptedChatModel,
  startScriptedChatModel,
} from '../support/acp/scriptedChatModel';
import { type SpawnedAgent, spawnAgent } from '../support/acp/spawnAgent';

/**
 * The real `opencode acp` (npm opencode-ai), offline against a local scripted model, driven by
 * the SDK's client side alone (no bridge): what an ACP client sees from an agent nobody here
 * wrote. Generous timeouts for a loaded machine; every wait is on an event, never a sleep.
 */
describe('opencode acp, driven directly', { timeout: 180_000 }, () => {
  let model: ScriptedChatModel;
  let project: OpencodeProject;
  let recorder: RecordingClient;
  let agent: SpawnedAgent;
  let ctx: acp.ClientContext;
  let init: acp.InitializeResponse;
  let deskSessionId: string;
  let sessionId: string;

  beforeAll(async () => {
    model = await startScriptedChatModel();
    project = createOpencodeProject({ baseUrl: model.baseUrl, files: { 'notes.md': 'old line\n' } });
    // A session started at the desk, in opencode's own CLI, before any ACP client exists.
    model.reply(answer.words('Desk answer.'));
    const desk = await project.run('Desk question');
    expect(desk.code, desk.stderr).toBe(0);
    recorder = createRecordingClient({ root: project.dir });
    agent = spawnAgent(project.acp, recorder.app, { cwd: project.dir, env: project.env });
    ctx = agent.connection.agent;
    init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
      clientInfo: { name: 'webbridge-tests', version: '0.1.0' },
    });
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await model?.close();
    project?.remove();
  });

  it('initializes: its name, version and capabilities', () => {
    expect(init.protocolVersion).toBe(1);
    expect(init.agentInfo).toEqual({ name: 'OpenCode', version: '1.18.33' });
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {} },
    });
    expect(init.authMethods).toEqual([
      expect.objectContaining({
        id: 'opencode-login',
        description: 'Run `opencode auth login` in the terminal',
      }),
    ]);
  });

  it('lists the session started at the desk', async () => {
    const listed = await ctx.request(acp.methods.agent.session.list, { cwd: project.dir });
    expect(listed.sessions).toEqual([
      expect.objectContaining({ cwd: project.dir, title: SCRIPTED_TITLE, updatedAt: expect.any(String) }),
    ]);
    deskSessionId = listed.sessions[0]!.sessionId;
  });

  it('loads the desk session, replaying its history as updates', async () => {
    const loaded = await ctx.request(acp.methods.agent.session.load, {
      sessionId: deskSessionId,
      cwd: project.dir,
      mcpServers: [],
    });
    expect(loaded.configOptions?.map((option) => option.id)).toEqual(['model', 'mode']);
    const replayed = recorder.updates.filter((n) => n.sessionId === deskSessionId).map((n) => n.update);
    expect(replayed).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text: 'Desk question' },
      }),
    );
    expect(recorder.text(deskSessionId)).toBe('Desk answer.');
  });

  it('opens a session in the project with its model and mode as config options', async () => {
    const created = await ctx.request(acp.methods.agent.session.new, { cwd: project.dir, mcpServers: [] });
    sessionId = created.sessionId;
    expect(sessionId).toMatch(/^ses_/);
    const [modelOption, modeOption] = created.configOptions ?? [];
    expect(modelOption).toMatchObject({
      id: 'model',
      category: 'model',
      type: 'select',
      currentValue: 'local/fake-model',
    });
    expect(modeOption).toMatchObject({ id: 'mode', category: 'mode', type: 'select', currentValue: 'build' });
  });

  it('streams a reply word by word and ends the turn', async () => {
    model.reply(answer.words('Hello from the scripted model.'));
    const response = await ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'Say hello' }],
    });
    expect(response.stopReason).toBe('end_turn');
    const chunks = recorder.updates.filter(
      (n) => n.sessionId === sessionId && n.update.sessionUpdate === 'agent_message_chunk',
    );
    expect(chunks.map((n) => (n.update as { content: { text: string } }).content.text)).toEqual([
      'Hello',
      ' from',
      ' the',
      ' scripted',
      ' model.',
    ]);
    expect(chunks[0]?.update).toHaveProperty('messageId');
  });

  it('asks permission for a write with the diff, writes through the client once allowed', async () => {
    const path = join(project.dir, 'notes.md');
    model.reply(
      answer.toolCall('write', { filePath: path, content: 'new line\n' }),
      answer.words('Written.'),
    );
    const before = recorder.updates.length;
    const running = ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'Rewrite notes.md' }],
    });
    const pending = await recorder.nextPermission(120_000);
    expect(pending.params.options).toEqual([
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ]);
    expect(pending.params.toolCall).toMatchObject({
      kind: 'edit',
      status: 'pending',
      content: [{ type: 'diff', path, oldText: 'old line\n', newText: 'new line\n' }],
      locations: [{ path }],
      rawInput: { filepath: path, diff: expect.stringContaining('-old line\n+new line') },
    });
    expect(recorder.writes).toHaveLength(0);
    pending.choose('allow_once');
    expect((await running).stopReason).toBe('end_turn');
    expect(recorder.writes).toEqual([{ sessionId, path, content: 'new line\n' }]);
    expect(readFileSync(path, 'utf8')).toBe('new line\n');
    const turn = recorder.updates.slice(before).map((n) => n.update);
    const toolCallId = pending.params.toolCall.toolCallId;
    expect(
      turn.filter((u) => 'toolCallId' in u && u.toolCallId === toolCallId).map((u) => u.sessionUpdate),
    ).toEqual(['tool_call', 'tool_call_update', 'tool_call_update']);
    expect(turn.findLast((u) => u.sessionUpdate === 'tool_call_update')).toMatchObject({
      status: 'completed',
    });
    expect(turn.at(-1)).toMatchObject({
      sessionUpdate: 'agent_message_chunk',
      content: { text: 'Written.' },
    });
  });

  it('stops mid-reply on session/cancel: the turn ends cancelled and the model request is dropped', async () => {
    model.reply(answer.stallAfter('Thinking about it'));
    const requestsBefore = model.requests.length;
    const textBefore = recorder.text(sessionId);
    const running = ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'Think slowly' }],
    });
    await recorder.until(
      () => (recorder.text(sessionId).endsWith('Thinking about it') ? true : undefined),
      'the first words of the reply',
      120_000,
    );
    expect(recorder.text(sessionId)).toBe(`${textBefore}Thinking about it`);
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe('cancelled');
    const request = await model.request(requestsBefore);
    await model.ended(request);
    expect(request.clientAborted).toBe(true);
  });

  it('lists both sessions of the project', async () => {
    const listed = await ctx.request(acp.methods.agent.session.list, { cwd: project.dir });
    expect(listed.sessions.map((s) => s.sessionId).sort()).toEqual([deskSessionId, sessionId].sort());
  });
});
