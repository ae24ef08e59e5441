import { type Action, SENSITIVE_ACTIONS, type SensitiveAction, type Snapshot } from '@webbridge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState, guardOf, postAction, problemOf, sendAndWait } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';

type SensitiveName = SensitiveAction['action'];

/** A valid body for each sensitive action (minus identity) against the prepared state. */
const BODIES: { [N in SensitiveName]: (s: Snapshot) => Record<string, unknown> } = {
  send: () => ({ text: 'should never land' }),
  stop: () => ({}),
  continue: () => ({}),
  workspace: (s) => ({ uri: s.projects.roots[0]?.uri }),
  model: () => ({ modelId: 'echo' }),
  branch: (s) => ({ messageId: s.conversations.messages[0]?.id, index: 0 }),
  editMessage: (s) => ({ messageId: s.conversations.messages[0]?.id, text: 'edited' }),
  regenerate: () => ({}),
  agentMode: () => ({ modeId: 'code' }),
  agentOption: () => ({ optionId: 'model', value: 'large' }),
};

const FIELDS = ['sessionRevision', 'conversationId', 'projectId', 'instanceId'] as const;

/** The parts of a snapshot an action could change (media ids are re-issued, so left out). */
function comparable(s: Snapshot) {
  return JSON.stringify(s, (key, value) => (key === 'media' ? undefined : value));
}

describe('409 session_mismatch', () => {
  let h: TestHost;
  let before: Snapshot;
  beforeAll(async () => {
    h = await startTestHost();
    before = await sendAndWait(h, 'hello there');
  });
  afterAll(() => h.close(true));

  it('covers every session-sensitive action of the contract', () => {
    expect(new Set(Object.keys(BODIES))).toEqual(SENSITIVE_ACTIONS);
  });

  for (const name of Object.keys(BODIES) as SensitiveName[]) {
    for (const field of FIELDS) {
      it(`${name} with a stale ${field} is 409, names the current identity and changes nothing`, async () => {
        const guard = guardOf(before);
        const stale = {
          ...guard,
          [field]: field === 'sessionRevision' ? guard.sessionRevision + 1 : 'stale-id',
        };
        const action = { action: name, ...BODIES[name](before), ...stale } as Action;
        const response = await postAction(h, action);
        expect(response.status).toBe(409);
        const problem = await problemOf(response);
        expect(problem.code).toBe('session_mismatch');
        expect(problem.current).toEqual(guard);
        expect(comparable(await getState(h))).toBe(comparable(before));
      });
    }
  }

  it('a matching identity is accepted (the same send lands once)', async () => {
    const response = await postAction(h, { action: 'send', text: 'now it lands', ...guardOf(before) });
    expect(response.status).toBe(200);
  });

  it('a 409 repeated while the identity moves names the identity current at each answer', async () => {
    const stale = {
      action: 'stop',
      ...guardOf(before),
      sessionRevision: before.sessionRevision + 100,
    } as Action;
    const first = await problemOf(await postAction(h, stale));
    expect(first.current).toEqual(guardOf(before));
    // Answered the same way while nothing moves...
    expect((await problemOf(await postAction(h, stale))).current).toEqual(guardOf(before));
    // ...and naming the new place once it has moved.
    expect((await postAction(h, { action: 'newConversation' })).status).toBe(200);
    const moved = await getState(h);
    expect(moved.sessionRevision).not.toBe(before.sessionRevision);
    expect((await problemOf(await postAction(h, stale))).current).toEqual(guardOf(moved));
    expect(
      (await postAction(h, { action: 'selectConversation', conversationId: before.conversationId })).status,
    ).toBe(200);
    expect((await problemOf(await postAction(h, stale))).current).toEqual(guardOf(await getState(h)));
  });
});
