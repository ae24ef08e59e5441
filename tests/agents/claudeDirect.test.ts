import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaudeProject, createClaudeProject } from '../support/acp/claudeProject';
import { type FakeAnthropic, startFakeAnthropic } from '../support/acp/fakeAnthropic';
import { createRecordingClient, type RecordingClient } from '../support/acp/recordingClient';
import { type SpawnedAgent, spawnAgent } from '../support/acp/spawnAgent';

/**
 * A second real agent offline: Claude Code through @zed-industries/claude-agent-acp, pointed at
 * a local fake of Anthropic's Messages API, driven by the SDK's client side alone.
 */
describe('claude-agent-acp, driven directly', { timeout: 180_000 }, () => {
  let api: FakeAnthropic;
  let project: ClaudeProject;
  let recorder: RecordingClient;
  let agent: SpawnedAgent;
  let ctx: acp.ClientContext;
  let init: acp.InitializeResponse;
  let session: acp.NewSessionResponse;

  beforeAll(async () => {
    api = await startFakeAnthropic();
    project = createClaudeProject({ baseUrl: api.baseUrl });
    recorder = createRecordingClient({ root: project.dir });
    agent = spawnAgent(project.acp, recorder.app, { cwd: project.dir, env: project.env });
    ctx = agent.connection.agent;
    init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    });
    session = await ctx.request(acp.methods.agent.session.new, { cwd: project.dir, mcpServers: [] });
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await api?.close();
    project?.remove();
  });

  it('initializes and opens a session with modes and config options', () => {
    expect(init.agentInfo).toMatchObject({ name: '@zed-industries/claude-agent-acp', version: '0.23.1' });
    expect(init.agentCapabilities).toMatchObject({
      loadSession: true,
      sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {} },
    });
    expect(session.modes?.availableModes.map((mode) => mode.id)).toEqual([
      'default',
      'acceptEdits',
      'plan',
      'dontAsk',
    ]);
    expect(session.configOptions?.map((option) => option.id)).toContain('mode');
  });

  it('streams a reply, with usage on the response and as an update', async () => {
    api.reply({ kind: 'text', text: 'Hello from the fake Claude.' });
    const response = await ctx.request(acp.methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'Say hello' }],
    });
    expect(response).toMatchObject({ stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5 } });
    expect(recorder.text(session.sessionId)).toBe('Hello from the fake Claude.');
    expect(recorder.updates.at(-1)?.update).toMatchObject({ sessionUpdate: 'usage_update', size: 200_000 });
  });

  it('asks permission for a new file with its diff, then writes it itself (not through fs/write_text_file)', async () => {
    const path = join(project.dir, 'new.md');
    api.reply({ kind: 'tool', name: 'Write', input: { file_path: path, content: 'new line\n' } });
    api.reply({ kind: 'text', text: 'Written.' });
    const running = ctx.request(acp.methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'Create new.md' }],
    });
    const pending = await recorder.nextPermission(120_000);
    expect(pending.params.options.map((option) => [option.optionId, option.kind])).toEqual([
      ['allow_always', 'allow_always'],
      ['allow', 'allow_once'],
      ['reject', 'reject_once'],
    ]);
    expect(pending.params.toolCall).toMatchObject({
      kind: 'edit',
      title: 'Write new.md',
      content: [{ type: 'diff', path, oldText: null, newText: 'new line\n' }],
      locations: [{ path }],
    });
    pending.choose('allow_once');
    expect((await running).stopReason).toBe('end_turn');
    expect(readFileSync(path, 'utf8')).toBe('new line\n');
    expect(recorder.writes).toEqual([]);
    const toolCallId = pending.params.toolCall.toolCallId;
    const last = recorder.updates.findLast(
      (n) => n.update.sessionUpdate === 'tool_call_update' && n.update.toolCallId === toolCallId,
    );
    expect(last?.update).toMatchObject({ status: 'completed' });
  });

  it('lists its session in the project', async () => {
    const listed = await ctx.request(acp.methods.agent.session.list, { cwd: project.dir });
    expect(listed.sessions).toEqual([
      expect.objectContaining({ sessionId: session.sessionId, cwd: project.dir, title: 'Say hello' }),
    ]);
  });
});
