import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { actionResultSchemas, localeSchema, PROTOCOL_VERSION, projectionSchema } from '@webbridge/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agents } from '../agents/Agents';
import type { ChatController } from '../controller/ChatController';
import { HostPush } from '../push/HostPush';
import { agentController } from '../testing/agentController';
import { miniAgent } from '../testing/miniAgent';
import { testController, waitForIdle, waitForState } from '../testing/testController';
import { createHostAdapter } from './createHostAdapter';

let open: ChatController[] = [];
let closing: Agents[] = [];
afterEach(async () => {
  for (const controller of open) controller.close();
  open = [];
  for (const agents of closing) await agents.close();
  closing = [];
});

describe('createHostAdapter', () => {
  it('answers every action with a result its contract schema accepts, and keeps the projection valid', async () => {
    const mini = miniAgent({ listed: [{ sessionId: 'desk-1', cwd: '/nowhere', title: 'Desk' }] });
    const { controller, dataDir, agents } = agentController([{ name: 'mini', app: mini.app }]);
    open.push(controller);
    closing.push(agents);
    const push = new HostPush(controller, { dataDir });
    const host = createHostAdapter(controller, push);
    const run = <T>(task: () => T) => host.runOnMain(task);
    const guard = () => {
      const s = host.readState();
      return { sessionRevision: s.sessionRevision, conversationId: s.conversationId, projectId: s.projectId };
    };
    const results: Record<string, unknown> = {};

    const upload = path.join(dataDir, 'up.txt');
    fs.writeFileSync(upload, 'abc');
    const attachment = await run(() =>
      host.addAttachment({ path: upload, name: 'up.txt', type: 'text/plain', size: 3 }),
    );
    expect(host.resolveMedia(attachment.id)).toEqual({
      path: upload,
      name: 'up.txt',
      type: 'text/plain',
      size: 3,
    });
    expect(host.resolveMedia('unknown')).toBeUndefined();

    results.send = await run(() => host.actions.send({ action: 'send', ...guard(), text: 'hello world' }));
    results.stop = await run(() => host.actions.stop({ action: 'stop', ...guard() }));
    results.continue = await run(() => host.actions.continue({ action: 'continue', ...guard() }));
    await waitForIdle(controller);
    const [user] = host.readState().conversations.messages;
    results.editMessage = await run(() =>
      host.actions.editMessage({ action: 'editMessage', ...guard(), messageId: user!.id, text: 'edited' }),
    );
    await waitForIdle(controller);
    results.branch = await run(() =>
      host.actions.branch({ action: 'branch', ...guard(), messageId: user!.id, index: 0 }),
    );
    results.regenerate = await run(() => host.actions.regenerate({ action: 'regenerate', ...guard() }));
    await waitForIdle(controller);
    results.model = await run(() => host.actions.model({ action: 'model', ...guard(), modelId: 'echo' }));
    const folder = path.join(dataDir, 'workspace', 'site');
    fs.mkdirSync(folder);
    const canonical = host.authoriseWorkspace(pathToFileURL(folder).href);
    expect(canonical).toBe(pathToFileURL(fs.realpathSync(folder)).href);
    results.workspace = await run(() =>
      host.actions.workspace({ action: 'workspace', ...guard(), uri: canonical! }),
    );
    results.newConversation = await run(() =>
      host.actions.newConversation({ action: 'newConversation', title: 'T' }),
    );
    const conversationId = host.readState().conversationId;
    results.renameConversation = await run(() =>
      host.actions.renameConversation({ action: 'renameConversation', conversationId, title: 'Renamed' }),
    );
    results.selectConversation = await run(() =>
      host.actions.selectConversation({ action: 'selectConversation', conversationId }),
    );
    results.deleteConversation = await run(() =>
      host.actions.deleteConversation({ action: 'deleteConversation', conversationId }),
    );
    results.selectProject = await run(() =>
      host.actions.selectProject({ action: 'selectProject', projectId: host.readState().projectId }),
    );
    results.updateSettings = await run(() =>
      host.actions.updateSettings({ action: 'updateSettings', settings: { theme: 'light' } }),
    );
    const pending = await run(() =>
      host.addAttachment({ path: upload, name: 'up.txt', type: 'text/plain', size: 3 }),
    );
    results.removeAttachment = await run(() =>
      host.actions.removeAttachment({ action: 'removeAttachment', attachmentId: pending.id }),
    );
    await run(() =>
      host.actions.send({ action: 'send', ...guard(), text: '/tool write_file {"path":"f","content":"c"}' }),
    );
    const waiting = await waitForState(controller, (s) => s.approvals.length === 1);
    results.approve = await run(() =>
      host.actions.approve({ action: 'approve', approvalId: waiting.approvals[0]!.id, decision: 'deny' }),
    );
    // Push, as a paired device (after the approval, so nothing is pushed anywhere).
    const device = { device: { id: 'dev-1', name: 'Phone' } };
    results.pushStatus = await run(() => host.actions.pushStatus({ action: 'pushStatus' }, device));
    results.subscribePush = await run(() =>
      host.actions.subscribePush(
        {
          action: 'subscribePush',
          subscription: {
            endpoint: 'https://93.184.216.34/push/1',
            keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
          },
          choices: { approvals: true, replies: false },
        },
        device,
      ),
    );
    results.reportPresence = await run(() =>
      host.actions.reportPresence({ action: 'reportPresence', visible: true }, device),
    );
    results.unsubscribePush = await run(() =>
      host.actions.unsubscribePush({ action: 'unsubscribePush' }, device),
    );
    push.close();
    // Agents: a conversation backed by an in-process ACP agent.
    results.newConversation = await run(() =>
      host.actions.newConversation({ action: 'newConversation', agentId: 'mini' }),
    );
    results.agentMode = await run(() =>
      host.actions.agentMode({ action: 'agentMode', ...guard(), modeId: 'code' }),
    );
    results.agentOption = await run(() =>
      host.actions.agentOption({ action: 'agentOption', ...guard(), optionId: 'model', value: 'large' }),
    );
    results.agentSessions = await run(() =>
      host.actions.agentSessions({ action: 'agentSessions', agentId: 'mini' }),
    );
    results.openAgentSession = await run(() =>
      host.actions.openAgentSession({
        action: 'openAgentSession',
        agentId: 'mini',
        sessionId: 'desk-1',
        projectId: host.readState().projectId,
      }),
    );

    for (const [name, result] of Object.entries(results)) {
      const schema = actionResultSchemas[name as keyof typeof actionResultSchemas];
      expect(schema.safeParse(result).success, name).toBe(true);
    }
    expect(Object.keys(results).sort()).toEqual(Object.keys(host.actions).sort());
    expect(projectionSchema.safeParse(host.readState()).success).toBe(true);
  });

  it('maps failures to not_found and not_applicable', async () => {
    const { controller } = testController();
    open.push(controller);
    const host = createHostAdapter(controller);
    await expect(
      host.runOnMain(() =>
        host.actions.selectConversation({ action: 'selectConversation', conversationId: 'nope' }),
      ),
    ).rejects.toMatchObject({ code: 'not_found', status: 404 });
    const s = host.readState();
    const guard = {
      sessionRevision: s.sessionRevision,
      conversationId: s.conversationId,
      projectId: s.projectId,
    };
    await expect(
      host.runOnMain(() => host.actions.model({ action: 'model', ...guard, modelId: 'gpt-nothing' })),
    ).rejects.toMatchObject({ code: 'not_applicable', status: 422 });
    await expect(
      host.runOnMain(() =>
        host.actions.approve({ action: 'approve', approvalId: 'nope', decision: 'allow' }),
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('serves a public locale with nothing about the controller state', () => {
    const { controller } = testController();
    open.push(controller);
    const locale = createHostAdapter(controller).locale();
    expect(localeSchema.parse(locale)).toEqual(locale);
    expect(locale.language).toBe('en');
    expect(locale.protocol).toBe(PROTOCOL_VERSION);
    expect(JSON.stringify(locale)).not.toContain(controller.readState().conversationId);
  });
});
