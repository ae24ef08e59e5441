import { afterEach, describe, expect, it } from 'vitest';
import { createHostAdapter } from '../adapter/createHostAdapter';
import { onMain, testController, waitForState } from '../testing/testController';
import type { ChatController } from './ChatController';

let open: ChatController[] = [];
afterEach(() => {
  for (const controller of open) controller.close();
  open = [];
});

async function waitingApproval() {
  const { controller, dataDir } = testController();
  open.push(controller);
  await onMain(controller, () => controller.messages.send('/tool write_file {"path":"a.txt","content":"x"}'));
  const state = await waitForState(controller, (s) => s.approvals.length === 1);
  return { controller, dataDir, approval: state.approvals[0]! };
}

const pixel = { device: { id: 'dev-pixel', name: 'Pixel 7' } };

describe('approval decisions record who and when', () => {
  it('shows "allowed on <device>" with the time on the call and on its result', async () => {
    const { controller, approval } = await waitingApproval();
    const host = createHostAdapter(controller);
    const before = Date.now();
    await onMain(controller, () =>
      host.actions.approve({ action: 'approve', approvalId: approval.id, decision: 'allow' }, pixel),
    );
    const [call, result] = controller.readState().conversations.messages.slice(-2);
    const decided = { decision: 'allow', by: { kind: 'device', name: 'Pixel 7' } };
    expect(call!.tool).toMatchObject({ approvalId: approval.id, decided });
    expect(result!.tool).toMatchObject({ approvalId: approval.id, decided });
    expect(result!.tool!.decided!.at).toBeGreaterThanOrEqual(before);
    expect(result!.tool!.decided!.at).toBeLessThanOrEqual(Date.now());
  });

  it('names the access code when no device sent it, and the host for its console', async () => {
    const first = await waitingApproval();
    await onMain(first.controller, () =>
      createHostAdapter(first.controller).actions.approve({
        action: 'approve',
        approvalId: first.approval.id,
        decision: 'deny',
      }),
    );
    expect(first.controller.readState().conversations.messages.at(-1)!.tool!.decided).toMatchObject({
      decision: 'deny',
      by: { kind: 'accessCode' },
    });
    const second = await waitingApproval();
    await onMain(second.controller, () => second.controller.approvals.approve(second.approval.id, 'allow'));
    expect(second.controller.readState().conversations.messages.at(-1)!.tool!.decided).toMatchObject({
      decision: 'allow',
      by: { kind: 'host' },
    });
  });

  it('answers a stale answer with what happened, where and when (422 with the decision)', async () => {
    const { controller, approval } = await waitingApproval();
    const host = createHostAdapter(controller);
    await onMain(controller, () =>
      host.actions.approve({ action: 'approve', approvalId: approval.id, decision: 'deny' }, pixel),
    );
    const late = onMain(controller, () =>
      host.actions.approve(
        { action: 'approve', approvalId: approval.id, decision: 'allow' },
        { device: { id: 'dev-ipad', name: 'iPad' } },
      ),
    );
    await expect(late).rejects.toMatchObject({
      code: 'not_applicable',
      message: 'That approval was already denied on Pixel 7.',
      extras: {
        decided: { approvalId: approval.id, decision: 'deny', by: { kind: 'device', name: 'Pixel 7' } },
      },
    });
    // The late answer changed nothing: still denied by the first device.
    expect(controller.readState().conversations.messages.at(-1)!.tool!.decided!.by).toEqual({
      kind: 'device',
      name: 'Pixel 7',
    });
  });

  it('keeps the decision across a restart of the host', async () => {
    const { controller, dataDir, approval } = await waitingApproval();
    await onMain(controller, () =>
      createHostAdapter(controller).actions.approve(
        { action: 'approve', approvalId: approval.id, decision: 'allow' },
        pixel,
      ),
    );
    controller.close();
    const again = testController({ dataDir }).controller;
    open.push(again);
    expect(again.readState().conversations.messages.at(-1)!.tool!.decided).toMatchObject({
      decision: 'allow',
      by: { kind: 'device', name: 'Pixel 7' },
    });
  });
});
