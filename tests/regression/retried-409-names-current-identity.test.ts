import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf, postAction, problemOf } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';

// Found by the contract fuzzer (tests/fuzz): a retried actionId whose first answer was a 409
// answered again with the identity of that moment, so after the host had moved on the 409
// named a place a send would no longer land, and sessionRevision seemed to go backwards.
describe('a retried action id that was refused with 409', () => {
  let h: TestHost;
  beforeAll(async () => {
    h = await startTestHost();
  });
  afterAll(() => h.close(true));

  it('is refused again, naming the identity current now, and applies nothing', async () => {
    const seen = await getState(h);
    await act(h, { action: 'newConversation' });
    const send = {
      action: 'send',
      text: 'never lands',
      actionId: 'retried-409-0001',
      ...guardOf(seen),
    } as const;
    const first = await problemOf(await postAction(h, send));
    expect(first.code).toBe('session_mismatch');
    const moved = await getState(h);
    expect(first.current).toEqual(guardOf(moved));

    await act(h, { action: 'newConversation' });
    const now = await getState(h);
    const retried = await postAction(h, send);
    expect(retried.status).toBe(409);
    const problem = await problemOf(retried);
    expect(problem.current).toEqual(guardOf(now));
    expect(problem.current?.sessionRevision).toBeGreaterThan(first.current?.sessionRevision ?? 0);
    const after = await getState(h);
    expect(after.conversations.messages.some((m) => m.text === 'never lands')).toBe(false);
    expect(guardOf(after)).toEqual(guardOf(now));
  });
});
