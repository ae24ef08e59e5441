import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BridgeClient, createBridgeClient } from '@webbridge/client-sdk';
import type { Snapshot } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpencodeProject, type OpencodeProject } from '../support/acp/opencodeProject';
import { answer, type ScriptedChatModel, startScriptedChatModel } from '../support/acp/scriptedChatModel';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';

/**
 * A real agent nobody here wrote, offline: `opencode acp` (the opencode-ai test dependency) in a
 * temporary project whose opencode.json points at a local scripted OpenAI-compatible model,
 * driven through the bridge's HTTP API and the SDK exactly as the phone drives it.
 */

const SLOW = 90_000;

let model: ScriptedChatModel;
let project: OpencodeProject;
let dataDir: string;
let h: TestHost;
let connections: { close(): void }[] = [];

async function startBridge(): Promise<TestHost> {
  const started = await startTestHost({
    ...(dataDir === undefined ? {} : { dataDir }),
    workspaceRoots: [project.dir],
    agents: {
      entries: [
        {
          name: 'opencode',
          ...project.acp,
          env: Object.fromEntries(
            Object.entries(project.env).filter((e): e is [string, string] => e[1] !== undefined),
          ),
          cwd: project.dir,
          signIn: undefined,
        },
      ],
    },
  });
  dataDir = started.dataDir;
  return started;
}

function client(host: TestHost): BridgeClient {
  const c = createBridgeClient({ baseUrl: host.url, accessCode: TEST_CODE });
  connections.push(c.connect());
  return c;
}

function until(c: BridgeClient, predicate: (s: Snapshot) => boolean, timeoutMs = 60_000): Promise<Snapshot> {
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
      const s = c.store.getState().snapshot;
      reject(
        new Error(
          `state not reached: ${JSON.stringify({ run: s?.conversations.run, messages: s?.conversations.messages, agents: s?.agents })}`,
        ),
      );
    }, timeoutMs);
    const unsubscribe = c.store.subscribe(check);
    check();
  });
}

const idle = (s: Snapshot) =>
  s.conversations.run.state === 'idle' && s.conversations.messages.at(-1)?.status !== 'streaming';

describe('opencode through the bridge (offline, scripted model)', () => {
  beforeAll(async () => {
    model = await startScriptedChatModel();
    project = createOpencodeProject({ baseUrl: model.baseUrl, files: { 'README.md': 'old\n' } });
    h = await startBridge();
  }, SLOW);
  afterAll(async () => {
    for (const c of connections) c.close();
    await h?.close(true);
    await model?.close();
    project?.remove();
  });

  it(
    'creates a conversation with opencode in a project; a reply streams; a write asks permission, a second client allows, file and diff are there',
    async () => {
      const phone = client(h);
      const laptop = client(h);
      const state = await phone.fetchState();
      await laptop.fetchState();
      expect(state.agents?.list.map((a) => a.name)).toEqual(['builtin', 'opencode']);
      await phone.sensitive({ action: 'workspace', uri: pathToFileURL(project.dir).href });
      await phone.action({ action: 'newConversation', agentId: 'opencode' });
      await until(phone, (s) => s.conversations.list[0]?.agentId === 'opencode');

      model.reply(answer.words('Hello from the scripted model.'));
      await phone.send('say hello');
      const replied = await until(
        phone,
        (s) => idle(s) && s.conversations.messages.at(-1)?.stopReason === 'end_turn',
      );
      expect(replied.conversations.messages.map((m) => m.text).join('')).toContain(
        'Hello from the scripted model.',
      );
      expect(replied.agents?.list.find((a) => a.name === 'opencode')?.state).toBe('ready');
      expect(replied.agents?.session?.configOptions.some((o) => o.id === 'model')).toBe(true);

      const file = join(realpathSync(project.dir), 'hello.txt');
      model.reply(
        answer.toolCall('write', { filePath: file, content: 'written by opencode\n' }),
        answer.words('Written.'),
      );
      await phone.send('write hello.txt');
      const asked = await until(laptop, (s) => s.approvals.length > 0);
      const [approval] = asked.approvals;
      expect(approval?.options?.some((o) => o.kind === 'allow_once')).toBe(true);
      await laptop.action({ action: 'approve', approvalId: approval!.id, decision: 'allow' });
      const done = await until(
        phone,
        (s) =>
          idle(s) && s.approvals.length === 0 && s.conversations.messages.at(-1)?.stopReason === 'end_turn',
      );
      expect(readFileSync(file, 'utf8')).toBe('written by opencode\n');
      const tool = done.conversations.messages.find((m) => m.agentTool?.kind === 'edit');
      expect(tool?.tool?.decided?.decision).toBe('allow');
      expect(JSON.stringify(approval?.diffs)).toContain('written by opencode');
      // The diff stays on the tool call once it is done (opencode shows it only when it asks).
      const diff = tool?.agentTool?.content.find((c) => c.type === 'diff');
      expect(diff).toMatchObject({ type: 'diff', newText: 'written by opencode\n' });
      expect(done.agents?.session?.configOptions.find((o) => o.id === 'mode')?.category).toBe('mode');
    },
    SLOW,
  );

  it(
    'stop mid-reply cancels the turn',
    async () => {
      const phone = client(h);
      await phone.fetchState();
      model.reply(answer.stallAfter('Thinking about it'));
      await phone.send('take your time');
      await until(phone, (s) => (s.conversations.messages.at(-1)?.text ?? '').includes('about'));
      await phone.stop();
      const stopped = await until(phone, (s) => s.conversations.messages.at(-1)?.stopReason === 'cancelled');
      expect(stopped.conversations.run.state).toBe('idle');
    },
    SLOW,
  );

  it(
    'after a host restart the conversation continues; a session made by `opencode run` opens with its history',
    async () => {
      const before = await client(h).fetchState();
      const conversationId = before.conversationId;
      for (const c of connections) c.close();
      connections = [];
      await h.close();
      h = await startBridge();
      const phone = client(h);
      const after = await phone.fetchState();
      expect(after.conversationId).toBe(conversationId);
      const count = after.conversations.messages.length;
      model.reply(answer.words('Still here.'));
      await phone.send('are you there?');
      const continued = await until(
        phone,
        (s) =>
          idle(s) &&
          s.conversations.messages.length > count + 1 &&
          s.conversations.messages.at(-1)?.stopReason === 'end_turn',
      );
      expect(continued.conversations.messages.map((m) => m.text).join('')).toContain('Still here.');

      model.reply(answer.words('Made at the desk.'));
      const run = await project.run('a question from the desk');
      expect(run.code).toBe(0);
      const { sessions } = await phone.action({ action: 'agentSessions', agentId: 'opencode' });
      const desk = sessions.find((s) => s.conversationId === undefined);
      expect(desk).toBeDefined();
      const opened = await phone.action({
        action: 'openAgentSession',
        agentId: 'opencode',
        sessionId: desk!.sessionId,
      });
      const shown = await until(
        phone,
        (s) => s.conversationId === opened.conversationId && s.conversations.messages.length >= 2,
      );
      expect(shown.conversations.messages.map((m) => m.text).join('')).toContain('a question from the desk');
      model.reply(answer.words('Continued on the phone.'));
      await phone.send('go on');
      const onward = await until(
        phone,
        (s) => idle(s) && s.conversations.messages.at(-1)?.stopReason === 'end_turn',
      );
      expect(onward.conversations.messages.map((m) => m.text).join('')).toContain('Continued on the phone.');
    },
    SLOW * 2,
  );
});
