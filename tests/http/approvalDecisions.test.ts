import type { Snapshot } from '@webbridge/contract';
import { problemSchema } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/testHost';

let h: TestHost;
beforeAll(async () => {
  h = await startTestHost();
});
afterAll(async () => {
  await h.close(true);
});

async function state(): Promise<Snapshot> {
  return (await (await fetch(`${h.url}/api/state`, { headers: h.auth() })).json()) as Snapshot;
}

function act(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${h.url}/api/action`, { method: 'POST', headers: h.auth(), body: JSON.stringify(body) });
}

async function waitFor(predicate: (s: Snapshot) => boolean): Promise<Snapshot> {
  for (let i = 0; i < 500; i++) {
    const s = await state();
    if (predicate(s)) return s;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('state did not arrive');
}

describe('approval decisions over HTTP', () => {
  it('puts the decision in the snapshot and answers a late answer with what happened', async () => {
    const before = await state();
    const sent = await act({
      action: 'send',
      text: '/tool write_file {"path":"d.txt","content":"x"}',
      sessionRevision: before.sessionRevision,
      conversationId: before.conversationId,
      projectId: before.projectId,
    });
    expect(sent.status).toBe(200);
    const waiting = await waitFor((s) => s.approvals.length === 1);
    const approval = waiting.approvals[0]!;

    const allowed = await act({ action: 'approve', approvalId: approval.id, decision: 'allow' });
    expect(allowed.status).toBe(200);
    const after = await waitFor((s) => s.approvals.length === 0);
    const result = after.conversations.messages.find(
      (m) => m.role === 'tool' && m.tool?.approvalId === approval.id,
    );
    // The access code itself names no device: the decision says so.
    expect(result?.tool?.decided).toMatchObject({ decision: 'allow', by: { kind: 'accessCode' } });

    const late = await act({ action: 'approve', approvalId: approval.id, decision: 'deny' });
    expect(late.status).toBe(422);
    const problem = problemSchema.parse(await late.json());
    expect(problem.code).toBe('not_applicable');
    expect(problem.detail).toBe('That approval was already allowed with the access code.');
    expect(problem.decided).toEqual({ approvalId: approval.id, ...result?.tool?.decided });
  });
});
