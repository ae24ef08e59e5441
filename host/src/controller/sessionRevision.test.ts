import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onMain, testController, waitForIdle } from '../testing/testController';
import type { ChatController } from './ChatController';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

describe('sessionRevision', () => {
  it('increments on every action that moves where a send lands, and not on sends', async () => {
    const { controller, dataDir } = testController();
    open.push(controller);
    const revision = () => controller.readState().sessionRevision;
    const step = async (task: () => unknown) => {
      const before = revision();
      await onMain(controller, task);
      await waitForIdle(controller);
      return revision() - before;
    };
    expect(revision()).toBe(0);

    const first = await onMain(controller, () => controller.messages.send('one'));
    await waitForIdle(controller);
    expect(revision()).toBe(0);
    expect(await step(() => controller.messages.send('two'))).toBe(0);
    expect(await step(() => controller.conversations.setModel('echo'))).toBe(0);
    expect(await step(() => controller.settings.update({ systemPrompt: 'be brief' }))).toBe(0);

    expect(await step(() => controller.messages.editMessage(first.messageId, 'one, edited'))).toBe(1);
    expect(await step(() => controller.messages.branch(first.messageId, 0))).toBe(1);
    expect(await step(() => controller.messages.regenerate())).toBe(1);

    const firstConversation = controller.readState().conversationId;
    expect(await step(() => controller.conversations.newConversation())).toBe(1);
    const second = controller.readState().conversationId;
    expect(await step(() => controller.conversations.selectConversation(firstConversation))).toBe(1);
    expect(await step(() => controller.conversations.selectConversation(firstConversation))).toBe(0);
    expect(await step(() => controller.conversations.deleteConversation(second))).toBe(0);
    expect(await step(() => controller.conversations.deleteConversation(firstConversation))).toBe(1);

    const folder = path.join(dataDir, 'workspace', 'site');
    fs.mkdirSync(folder);
    expect(await step(() => controller.projects.setWorkspace(folder))).toBe(1);

    const other = await onMain(controller, () => controller.projects.createProject('Other', folder));
    expect(await step(() => controller.projects.selectProject(other))).toBe(1);
    expect(controller.readState().projectId).toBe(other);
  });

  it('starts at 0 on a new data directory, with a new instanceId on every run', async () => {
    const { controller, dataDir } = testController();
    const first = controller.readState();
    controller.close();
    const again = testController({ dataDir }).controller;
    open.push(again);
    expect(first.sessionRevision).toBe(0);
    expect(again.readState().instanceId).not.toBe(first.instanceId);
  });

  it('never repeats for one data directory: a restart continues above every revision seen', async () => {
    const { controller, dataDir } = testController();
    const seen: number[] = [controller.readState().sessionRevision];
    const unsubscribe = controller.subscribe(() => seen.push(controller.readState().sessionRevision));
    const firstConversation = controller.readState().conversationId;
    await onMain(controller, () => controller.conversations.newConversation());
    await onMain(controller, () => controller.conversations.selectConversation(firstConversation));
    await onMain(controller, () => controller.conversations.newConversation());
    unsubscribe();
    controller.close();
    expect(Math.max(...seen)).toBe(3);

    // A client that omits instanceId and still holds the last identity must be refused after a
    // restart, so the restarted host may not hand out any revision seen before, not even once.
    const again = testController({ dataDir }).controller;
    const restarted = again.readState().sessionRevision;
    expect(restarted).toBeGreaterThan(Math.max(...seen));
    await onMain(again, () => again.conversations.selectConversation(firstConversation));
    const moved = again.readState().sessionRevision;
    expect(moved).toBeGreaterThan(restarted);
    again.close();

    // A run that changed nothing still used its revision: the next one starts above it.
    const third = testController({ dataDir }).controller;
    const idle = third.readState().sessionRevision;
    third.close();
    const fourth = testController({ dataDir }).controller;
    open.push(fourth);
    expect(idle).toBeGreaterThan(moved);
    expect(fourth.readState().sessionRevision).toBeGreaterThan(idle);
  });
});
