import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostAdapter } from '../adapter/createHostAdapter';
import { onMain, testController, waitForIdle, waitForState } from '../testing/testController';
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

/** Makes the echo model call a tool, as the web tests do, and waits until the call is handled. */
async function callTool(controller: ChatController, name: string, args: unknown) {
  const sent = await onMain(controller, () =>
    controller.messages.send(`/tool ${name} ${JSON.stringify(args)}`),
  );
  await waitForState(controller, (s) => {
    const reply = s.conversations.messages.find((m) => m.id === sent.replyId);
    // A call that runs in the background stays `streaming`; the tool name says it was handled.
    return reply?.tool !== undefined;
  });
  return sent;
}

function last(controller: ChatController) {
  return controller.readState().conversations.messages.at(-1)!;
}

function allow(controller: ChatController) {
  const approval = controller.readState().approvals[0];
  if (!approval) throw new Error('no pending approval');
  return onMain(controller, () => controller.approvals.approve(approval.id, 'allow'));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('patch_file through the controller', () => {
  it('waits for approval, patches when allowed and leaves the file alone when denied', async () => {
    const { controller, workspace } = start();
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'hello world\n');
    await callTool(controller, 'patch_file', { path: 'a.txt', find: 'world', replace: 'there' });
    const approval = controller.readState().approvals[0]!;
    expect(approval).toMatchObject({ tool: 'patch_file', summary: 'Patch a.txt: world → there' });
    expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('hello world\n');
    await allow(controller);
    expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('hello there\n');
    expect(last(controller)).toMatchObject({
      role: 'tool',
      status: 'complete',
      text: 'Patched a.txt: 1 edit (at line 1).',
    });

    await callTool(controller, 'patch_file', { path: 'a.txt', find: 'hello', replace: 'bye' });
    const second = controller.readState().approvals[0]!;
    await onMain(controller, () => controller.approvals.approve(second.id, 'deny'));
    expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('hello there\n');
    expect(last(controller).text).toMatch(/^Denied/);
  });

  it('records an ambiguous find as an error result after the approval', async () => {
    const { controller, workspace } = start();
    fs.writeFileSync(path.join(workspace, 'a.txt'), 'x x');
    await callTool(controller, 'patch_file', { path: 'a.txt', find: 'x', replace: 'y' });
    await allow(controller);
    expect(last(controller)).toMatchObject({ role: 'tool', status: 'error' });
    expect(last(controller).error).toMatch(/occurs 2 times/);
    expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('x x');
  });
});

describe('run_command through the controller', () => {
  it('is listed disabled and answers "disabled in settings" without asking, until allowCommands', async () => {
    const { controller } = start();
    const listed = () => controller.readState().tools.list.find((t) => t.name === 'run_command');
    expect(listed()).toMatchObject({ enabled: false, needsApproval: true });
    await callTool(controller, 'run_command', { command: 'node', args: ['-e', ''] });
    expect(controller.readState().approvals).toEqual([]);
    expect(last(controller)).toMatchObject({ role: 'tool', status: 'error' });
    expect(last(controller).error).toMatch(/disabled in settings/);

    const before = controller.readState().tools;
    await onMain(controller, () => controller.settings.update({ allowCommands: true }));
    expect(listed()).toMatchObject({ enabled: true });
    expect(controller.readState().tools).not.toBe(before);
    const unchanged = controller.readState().tools;
    await onMain(controller, () => controller.settings.update({ theme: 'dark' }));
    expect(controller.readState().tools).toBe(unchanged);
  });

  it('runs an approved command in the background, then records its output', async () => {
    const { controller, workspace } = start();
    await onMain(controller, () => controller.settings.update({ allowCommands: true }));
    const sent = await callTool(controller, 'run_command', {
      command: 'node',
      args: ['-e', 'setTimeout(() => console.log("done in", process.cwd()), 200)'],
    });
    expect(controller.readState().approvals[0]).toMatchObject({ tool: 'run_command' });
    expect(controller.readState().approvals[0]!.summary).toMatch(/^Run node -e /);
    await allow(controller);
    expect(controller.readState().conversations.run).toEqual({ state: 'streaming', messageId: sent.replyId });
    await expect(onMain(controller, () => controller.messages.send('meanwhile'))).rejects.toMatchObject({
      code: 'not_applicable',
    });
    const state = await waitForIdle(controller);
    const result = state.conversations.messages.at(-1)!;
    expect(result).toMatchObject({ role: 'tool', status: 'complete', parentId: sent.replyId });
    expect(result.text).toContain(`done in ${fs.realpathSync(workspace)}`);
    expect(result.text).toMatch(/\[exit code 0\]$/);
    expect(state.conversations.messages.find((m) => m.id === sent.replyId)?.status).toBe('complete');
  });

  it('stop kills a running command and records no result', async () => {
    const { controller, workspace } = start();
    await onMain(controller, () =>
      controller.settings.update({ allowCommands: true, autoApprove: ['run_command'] }),
    );
    const sent = await callTool(controller, 'run_command', {
      command: 'node',
      args: ['-e', "require('fs').writeFileSync('pid', String(process.pid)); setInterval(() => {}, 1000)"],
    });
    // autoApprove is respected for run_command too: no approval, it runs at once.
    expect(controller.readState().approvals).toEqual([]);
    const pidFile = path.join(workspace, 'pid');
    for (let i = 0; i < 100 && !(fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== ''); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    await expect(onMain(controller, () => controller.messages.stop())).resolves.toEqual({ stopped: true });
    const state = controller.readState();
    expect(state.conversations.run.state).toBe('idle');
    expect(state.conversations.messages.at(-1)).toMatchObject({ id: sent.replyId, status: 'stopped' });
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(isAlive(pid)).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(controller.readState().conversations.messages.at(-1)!.id).toBe(sent.replyId);
  });

  it('refuses an approved command when commands were turned off while it waited', async () => {
    const { controller } = start();
    await onMain(controller, () => controller.settings.update({ allowCommands: true }));
    await callTool(controller, 'run_command', { command: 'node', args: ['-e', ''] });
    await onMain(controller, () => controller.settings.update({ allowCommands: false }));
    await allow(controller);
    expect(last(controller)).toMatchObject({ role: 'tool', status: 'error' });
    expect(last(controller).error).toMatch(/disabled in settings/);
  });
});

describe('large tool results', () => {
  it('become an attachment reachable through the adapter, with a preview as the text', async () => {
    const { controller, workspace, dataDir } = start();
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    fs.writeFileSync(path.join(workspace, 'big.txt'), big);
    fs.writeFileSync(path.join(workspace, 'small.txt'), 'small');
    await callTool(controller, 'search_text', { pattern: 'small' });
    expect(last(controller)).toMatchObject({ role: 'tool', text: 'small.txt:1: small', attachments: [] });

    await callTool(controller, 'read_file', { path: 'big.txt' });
    const result = last(controller);
    expect(result.role).toBe('tool');
    expect(result.text.startsWith('line 0 ')).toBe(true);
    expect(result.text.endsWith('\n… (full output attached)')).toBe(true);
    expect(Buffer.byteLength(result.text)).toBeLessThan(4096);
    expect(result.attachments).toEqual([
      {
        id: expect.any(String),
        name: 'read_file-output.txt',
        type: 'text/plain',
        size: Buffer.byteLength(big),
      },
    ]);
    const media = createHostAdapter(controller).resolveMedia(result.attachments[0]!.id);
    expect(media).toMatchObject({
      name: 'read_file-output.txt',
      type: 'text/plain',
      size: Buffer.byteLength(big),
    });
    expect(path.dirname(media!.path)).toBe(path.join(dataDir, 'uploads'));
    expect(fs.readFileSync(media!.path, 'utf8')).toBe(big);

    // The attachment survives a restart and goes with its conversation.
    controller.close();
    const reopened = testController({ dataDir });
    open.push(reopened.controller);
    expect(reopened.controller.readState().conversations.messages.at(-1)!.attachments).toEqual(
      result.attachments,
    );
    const conversationId = reopened.controller.readState().conversationId;
    await onMain(reopened.controller, () =>
      reopened.controller.conversations.deleteConversation(conversationId),
    );
    expect(fs.existsSync(media!.path)).toBe(false);
    expect(createHostAdapter(reopened.controller).resolveMedia(result.attachments[0]!.id)).toBeUndefined();
  });
});
