import { type ActionName, identityOf, isSensitiveAction, type Snapshot } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockBridge } from '../../web/src/mocks/createMockBridge';
import { startTestHost, type TestHost } from '../support/testHost';

/**
 * The mocks' branches (web/src/mocks/scriptedBranches.ts) against the reference host's: the
 * same edits, switches and regenerates, sent the same way to each, give the same answers, the
 * same session revision moves and the same branch shown (roles, statuses, sibling positions,
 * parents, the user's texts). The replies' texts are each host's own echo and are not compared.
 */
type Fetch = (request: Request) => Promise<Response>;
interface Side {
  readonly fetch: Fetch;
  readonly origin: string;
  readonly auth: Record<string, string>;
}

const state = async (side: Side): Promise<Snapshot> =>
  (await (
    await side.fetch(new Request(`${side.origin}/api/state`, { headers: side.auth }))
  ).json()) as Snapshot;

/** Posts an action (guarded when the contract says so); the status and the result's keys or the code. */
async function act(side: Side, action: Record<string, unknown> & { action: ActionName }) {
  const guarded = { ...action, ...identityOf(await state(side)) };
  const body = JSON.stringify(isSensitiveAction(guarded as never) ? guarded : action);
  const headers = { ...side.auth, 'Content-Type': 'application/json' };
  const response = await side.fetch(
    new Request(`${side.origin}/api/action`, { method: 'POST', headers, body }),
  );
  const json = (await response.json()) as { result?: Record<string, unknown>; code?: string };
  return response.ok
    ? `${response.status} ${Object.keys(json.result ?? {}).sort()}`
    : `${response.status} ${json.code}`;
}

async function idle(side: Side): Promise<Snapshot> {
  for (;;) {
    const now = await state(side);
    if (now.conversations.run.state === 'idle') return now;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What a client shows of the branch: each message's role, status, place, whether its parent precedes it. */
function shape(s: Snapshot) {
  return s.conversations.messages.map((m, i, all) => ({
    role: m.role,
    status: m.status,
    sibling: m.sibling,
    parent: m.parentId === (all[i - 1]?.id ?? null),
    ...(m.role === 'user' ? { text: m.text } : {}),
  }));
}

/** The scenario, run on one side: each step's answer, revision move and branch shown. */
async function run(side: Side) {
  const steps: unknown[] = [];
  const step = async (
    name: string,
    action: (s: Snapshot) => Record<string, unknown> & { action: ActionName },
  ) => {
    const before = await idle(side);
    const answer = await act(side, action(before));
    const after = await idle(side);
    steps.push({
      name,
      answer,
      revision: after.sessionRevision - before.sessionRevision,
      shape: shape(after),
    });
  };
  const user = (s: Snapshot) => s.conversations.messages.find((m) => m.role === 'user')?.id ?? 'none';
  const lastReply = (s: Snapshot) =>
    s.conversations.messages.findLast((m) => m.role === 'assistant')?.id ?? 'none';
  await step('new', () => ({ action: 'newConversation' }));
  await step('send', () => ({ action: 'send', text: 'first question' }));
  await step('send again', () => ({ action: 'send', text: 'a follow-up' }));
  await step('edit', (s) => ({ action: 'editMessage', messageId: user(s), text: 'second question' }));
  await step('back to the first', (s) => ({ action: 'branch', messageId: user(s), index: 0 }));
  await step('the same again', (s) => ({ action: 'branch', messageId: user(s), index: 0 }));
  await step('regenerate', () => ({ action: 'regenerate' }));
  await step('regenerate the first reply', (s) => ({
    action: 'regenerate',
    messageId: s.conversations.messages[1]?.id ?? 'none',
  }));
  await step('first reply', (s) => ({
    action: 'branch',
    messageId: s.conversations.messages[1]!.id,
    index: 0,
  }));
  await step('to the edit', (s) => ({ action: 'branch', messageId: user(s), index: 1 }));
  await step('no such version', (s) => ({ action: 'branch', messageId: user(s), index: 5 }));
  await step('edit a reply', (s) => ({ action: 'editMessage', messageId: lastReply(s), text: 'x' }));
  await step('regenerate a question', (s) => ({ action: 'regenerate', messageId: user(s) }));
  await step('unknown', () => ({ action: 'branch', messageId: 'no-such-message', index: 0 }));
  return steps;
}

describe('the mocks’ branches answer as the reference host’s', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ echoDelayMs: 1 });
  });
  afterAll(() => host?.close(true));

  it('edit, regenerate and branch: the same answers, revision moves and branches shown', async () => {
    const mock = createMockBridge({ accessCode: 'agreement', wordDelayMs: 1 });
    try {
      const viaMock = await run({
        fetch: mock.fetch,
        origin: 'http://mock.test',
        auth: { Authorization: 'Bearer agreement' },
      });
      const viaHost = await run({ fetch, origin: host.url, auth: host.auth() });
      expect(viaMock).toEqual(viaHost);
    } finally {
      await mock.close();
    }
  }, 60_000);
});
