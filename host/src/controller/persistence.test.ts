import { aSettings } from '@webbridge/contract/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { EchoModel } from '../models/EchoModel';
import { onMain, testController, waitForIdle, waitForState } from '../testing/testController';
import type { ChatController } from './ChatController';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

describe('persistence', () => {
  it('starts with the Default project and one conversation', () => {
    const { controller, dataDir } = testController();
    open.push(controller);
    const state = controller.readState();
    expect(state.projects.list).toHaveLength(1);
    expect(state.projects.list[0]).toMatchObject({ name: 'Default', workspace: { name: 'workspace' } });
    expect(state.projects.list[0]!.workspace.uri).toMatch(/^file:\/\/.*\/workspace$/);
    expect(state.projects.roots[0]!.uri).toBe(state.projects.list[0]!.workspace.uri);
    expect(state.projects.roots[0]!.uri.endsWith(`${dataDir.split('/').at(-1)}/workspace`)).toBe(true);
    expect(state.conversations.list).toHaveLength(1);
    expect(state.conversationId).toBe(state.conversations.list[0]!.id);
    expect(state.models).toEqual({
      current: 'echo',
      list: [{ id: 'echo', name: 'Echo (offline)', provider: 'echo' }],
    });
    expect(state.settings).toEqual(aSettings());
    expect(state.tools.list.map((t) => [t.name, t.needsApproval, t.enabled])).toEqual([
      ['list_files', false, true],
      ['read_file', false, true],
      ['search_text', false, true],
      ['write_file', true, true],
      ['patch_file', true, true],
      ['run_command', true, false],
    ]);
  });

  it('keeps the model of each conversation and the current one across switches in one turn and a restart', () => {
    // A second provider, so that a switch is a real change.
    const echo = new EchoModel();
    const providers = [
      {
        id: 'echo-b',
        models: echo.models.map((m) => ({ ...m, id: 'echo-b', name: 'Echo B', provider: 'echo-b' })),
        followsToolResults: false,
        stream: echo.stream.bind(echo),
      },
    ];
    const { controller, dataDir } = testController({ providers });
    const first = controller.readState().conversationId;
    // All in one turn: the model's writes are held (GroupCommit.writeLast) and must still be
    // read back by the conversation switches in between.
    controller.conversations.setModel('echo-b');
    controller.conversations.setModel('echo');
    controller.conversations.setModel('echo-b');
    const { conversationId: second } = controller.conversations.newConversation();
    controller.conversations.setModel('echo');
    controller.conversations.selectConversation(first);
    expect(controller.readState().models.current).toBe('echo-b');
    controller.conversations.selectConversation(second);
    expect(controller.readState().models.current).toBe('echo');
    controller.conversations.selectConversation(first);
    // Still held when the controller closes: closing writes it.
    controller.conversations.setModel('echo');
    controller.close();

    const reopened = testController({ dataDir, providers }).controller;
    open.push(reopened);
    expect(reopened.readState().conversationId).toBe(first);
    expect(reopened.readState().models.current).toBe('echo');
    reopened.conversations.selectConversation(second);
    expect(reopened.readState().models.current).toBe('echo');
  });

  it('restores conversations, messages, branches and the current selection after a restart', async () => {
    const { controller, dataDir } = testController();
    const sent = await onMain(controller, () => controller.messages.send('remember me'));
    await waitForIdle(controller);
    await onMain(controller, () => controller.messages.editMessage(sent.messageId, 'remember this instead'));
    await waitForIdle(controller);
    await onMain(controller, () => controller.conversations.newConversation(undefined, 'Second'));
    await onMain(controller, () => controller.conversations.selectConversation(sent.conversationId));
    await onMain(controller, () =>
      controller.settings.update({ theme: 'dark', autoApprove: ['write_file'] }),
    );
    const before = controller.readState();
    controller.close();

    const reopened = testController({ dataDir }).controller;
    open.push(reopened);
    const after = reopened.readState();
    expect(after.conversationId).toBe(sent.conversationId);
    expect(after.projectId).toBe(before.projectId);
    expect(after.conversations.list).toEqual(before.conversations.list);
    expect(after.conversations.messages).toEqual(before.conversations.messages);
    expect(after.conversations.messages[0]!.sibling).toEqual({ index: 1, count: 2 });
    expect(after.settings.theme).toBe('dark');
    // Auto-approval lasts for one session only.
    expect(after.settings.autoApprove).toEqual([]);
  });

  it('turns a reply interrupted by a crash into a stopped one that can be continued', async () => {
    const { controller, dataDir } = testController({ echoDelayMs: 20 });
    await onMain(controller, () => controller.messages.send('cut short by a crash'));
    await waitForState(controller, (s) => s.conversations.messages.at(-1)?.text === 'cut ');
    // close() without stop() leaves the row `streaming`, as a kill -9 would.
    controller.close();

    const reopened = testController({ dataDir }).controller;
    open.push(reopened);
    const reply = reopened.readState().conversations.messages.at(-1)!;
    expect(reply.status).toBe('stopped');
    expect(reply.text).toBe('cut ');
    expect(reopened.readState().conversations.run.state).toBe('idle');
    await onMain(reopened, () => reopened.messages.continue());
    const done = await waitForState(reopened, (s) => s.conversations.messages.at(-1)?.status === 'complete');
    expect(done.conversations.messages.at(-1)!.text).toBe('cut short by a crash');
  });
});
