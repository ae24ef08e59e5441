import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onMain, tempDir, testController, waitForIdle, waitForState } from '../testing/testController';
import type { ChatController } from './ChatController';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

function start() {
  const started = testController();
  open.push(started.controller);
  return { ...started, workspace: path.join(started.dataDir, 'workspace') };
}

async function callTool(controller: ChatController, command: string) {
  const sent = await onMain(controller, () => controller.messages.send(command));
  await waitForState(controller, (s) => s.conversations.run.state !== 'streaming');
  return sent;
}

describe('tool calls and approvals', () => {
  it("shows what the host's own write tools would change: a diff on their approval", async () => {
    const { controller, workspace } = start();
    fs.writeFileSync(path.join(workspace, 'b.txt'), 'one\ntwo\n');
    await callTool(controller, '/tool write_file {"path":"a.txt","content":"new text"}');
    const written = controller.readState().approvals[0];
    const real = fs.realpathSync(workspace);
    expect(written?.diffs).toEqual([{ path: path.join(real, 'a.txt'), oldText: null, newText: 'new text' }]);
    await onMain(controller, () => controller.approvals.approve(written!.id, 'deny'));
    await waitForIdle(controller);
    await callTool(controller, '/tool patch_file {"path":"b.txt","find":"two","replace":"2"}');
    const patched = controller.readState().approvals[0];
    expect(patched?.diffs).toEqual([
      { path: path.join(real, 'b.txt'), oldText: 'one\ntwo\n', newText: 'one\n2\n' },
    ]);
    expect(patched?.options).toBeUndefined();
  });

  it("keeps what an allowed write changed on its result: the conversation's history shows the diff", async () => {
    const { controller, workspace, dataDir } = start();
    const real = fs.realpathSync(workspace);
    fs.writeFileSync(path.join(workspace, 'b.txt'), 'one\ntwo\n');
    await callTool(controller, '/tool patch_file {"path":"b.txt","find":"two","replace":"2"}');
    const patch = controller.readState().approvals[0]!;
    await onMain(controller, () => controller.approvals.approve(patch.id, 'allow'));
    await waitForIdle(controller);
    const patched = controller.readState().conversations.messages.at(-1)!;
    expect(patched).toMatchObject({ role: 'tool', status: 'complete' });
    expect(patched.diffs).toEqual([
      { path: path.join(real, 'b.txt'), oldText: 'one\ntwo\n', newText: 'one\n2\n' },
    ]);
    // Denied, nothing changed: no diff. Auto-approved, the change is kept as well.
    await callTool(controller, '/tool write_file {"path":"c.txt","content":"c"}');
    const write = controller.readState().approvals[0]!;
    await onMain(controller, () => controller.approvals.approve(write.id, 'deny'));
    await waitForIdle(controller);
    expect(controller.readState().conversations.messages.at(-1)!.diffs).toBeUndefined();
    await onMain(controller, () => controller.settings.update({ autoApprove: ['write_file'] }));
    await callTool(controller, '/tool write_file {"path":"b.txt","content":"three\\n"}');
    expect(controller.readState().conversations.messages.at(-1)!.diffs).toEqual([
      { path: path.join(real, 'b.txt'), oldText: 'one\n2\n', newText: 'three\n' },
    ]);
    // Stored: a host started again over the same data shows the same diffs.
    const before = controller.readState().conversations.messages.filter((m) => m.diffs !== undefined);
    expect(before).toHaveLength(2);
    controller.close();
    open = open.filter((c) => c !== controller);
    const again = testController({ dataDir }).controller;
    open.push(again);
    expect(again.readState().conversations.messages.filter((m) => m.diffs !== undefined)).toEqual(before);
  });

  it('waits for approval, then writes the file inside the workspace when allowed', async () => {
    const { controller, workspace } = start();
    const sent = await callTool(controller, '/tool write_file {"path":"notes/a.txt","content":"hi there"}');
    let state = controller.readState();
    expect(state.conversations.run).toEqual({ state: 'waiting_approval', messageId: sent.replyId });
    expect(state.conversations.messages.at(-1)).toMatchObject({ id: sent.replyId, status: 'waiting' });
    expect(state.approvals).toHaveLength(1);
    const approval = state.approvals[0]!;
    expect(approval).toMatchObject({
      tool: 'write_file',
      conversationId: sent.conversationId,
      messageId: sent.replyId,
    });
    expect(approval.summary).toContain('notes/a.txt');
    expect(fs.existsSync(path.join(workspace, 'notes/a.txt'))).toBe(false);
    await expect(onMain(controller, () => controller.messages.send('not now'))).rejects.toMatchObject({
      code: 'not_applicable',
    });

    await expect(
      onMain(controller, () => controller.approvals.approve(approval.id, 'allow')),
    ).resolves.toEqual({
      approvalId: approval.id,
      decision: 'allow',
    });
    expect(fs.readFileSync(path.join(workspace, 'notes/a.txt'), 'utf8')).toBe('hi there');
    state = controller.readState();
    expect(state.approvals).toEqual([]);
    expect(state.conversations.run).toEqual({ state: 'idle', messageId: null });
    const [call, result] = state.conversations.messages.slice(-2);
    expect(call).toMatchObject({ role: 'assistant', status: 'complete', tool: { name: 'write_file' } });
    expect(result).toMatchObject({
      role: 'tool',
      parentId: sent.replyId,
      status: 'complete',
      tool: { name: 'write_file', approvalId: approval.id },
    });
    await expect(
      onMain(controller, () => controller.approvals.approve(approval.id, 'allow')),
    ).rejects.toMatchObject({
      code: 'not_applicable',
    });
  });

  it('records a denial and writes nothing', async () => {
    const { controller, workspace } = start();
    await callTool(controller, '/tool write_file {"path":"nope.txt","content":"x"}');
    const approval = controller.readState().approvals[0]!;
    await onMain(controller, () => controller.approvals.approve(approval.id, 'deny'));
    expect(fs.existsSync(path.join(workspace, 'nope.txt'))).toBe(false);
    const result = controller.readState().conversations.messages.at(-1)!;
    expect(result.role).toBe('tool');
    expect(result.text).toMatch(/denied/i);
    expect(controller.readState().conversations.run.state).toBe('idle');
  });

  it('runs tools that need no approval at once, and auto-approved ones too', async () => {
    const { controller, workspace } = start();
    fs.writeFileSync(path.join(workspace, 'readme.md'), 'read me');
    await callTool(controller, '/tool read_file {"path":"readme.md"}');
    expect(controller.readState().conversations.messages.at(-1)).toMatchObject({
      role: 'tool',
      text: 'read me',
    });
    await onMain(controller, () => controller.settings.update({ autoApprove: ['write_file'] }));
    await callTool(controller, '/tool write_file {"path":"auto.txt","content":"auto"}');
    expect(controller.readState().approvals).toEqual([]);
    expect(fs.readFileSync(path.join(workspace, 'auto.txt'), 'utf8')).toBe('auto');
    await callTool(controller, '/tool list_files {}');
    expect(controller.readState().conversations.messages.at(-1)!.text.split('\n')).toEqual([
      'auto.txt',
      'readme.md',
    ]);
  });

  it('refuses paths that escape the workspace: .., absolute, and symlinks out', async () => {
    const { controller, workspace } = start();
    const outside = tempDir('webbridge-outside-');
    fs.symlinkSync(outside, path.join(workspace, 'link'));
    await onMain(controller, () => controller.settings.update({ autoApprove: ['write_file'] }));
    for (const target of ['../escape.txt', path.join(outside, 'abs.txt'), 'link/through.txt']) {
      await callTool(controller, `/tool write_file ${JSON.stringify({ path: target, content: 'x' })}`);
      const result = controller.readState().conversations.messages.at(-1)!;
      expect(result).toMatchObject({ role: 'tool', status: 'error' });
      expect(result.error).toMatch(/absolute|leaves|outside/);
      expect(result.text).not.toContain(outside);
    }
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(path.dirname(workspace), 'escape.txt'))).toBe(false);
  });

  it('marks an unknown tool as an error, and stop cancels a pending approval', async () => {
    const { controller } = start();
    await callTool(controller, '/tool rm_rf {}');
    expect(controller.readState().conversations.messages.at(-1)).toMatchObject({
      role: 'assistant',
      status: 'error',
    });
    await callTool(controller, '/tool write_file {"path":"a","content":"b"}');
    expect(controller.readState().approvals).toHaveLength(1);
    await expect(onMain(controller, () => controller.messages.stop())).resolves.toEqual({ stopped: true });
    expect(controller.readState().approvals).toEqual([]);
    expect(controller.readState().conversations.messages.at(-1)!.status).toBe('stopped');
    await waitForIdle(controller);
  });
});
