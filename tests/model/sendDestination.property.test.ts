import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot } from '@webbridge/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostDb, openHostDb } from '../sdk/hostDb';
import { getState, guardOf, postAction, waitFor } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';

/** What the phone's user does on the host side, through the controller, as the phone would. */
type HostStep =
  | { readonly kind: 'newConversation'; readonly project: number | null }
  | { readonly kind: 'selectConversation'; readonly pick: number }
  | { readonly kind: 'selectProject'; readonly pick: number };

/** What the simulated browser does. */
type Step =
  | { readonly kind: 'host'; readonly step: HostStep }
  | { readonly kind: 'refresh' }
  /** A send with the identity last seen; `racing` fires a host step `delayMs` after it. */
  | { readonly kind: 'send'; readonly racing: { step: HostStep; delayMs: number } | null };

const hostStep: fc.Arbitrary<HostStep> = fc.oneof(
  fc.record({ kind: fc.constant('newConversation' as const), project: fc.option(fc.nat(2)) }),
  fc.record({ kind: fc.constant('selectConversation' as const), pick: fc.nat(50) }),
  fc.record({ kind: fc.constant('selectProject' as const), pick: fc.nat(2) }),
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('host' as const), step: hostStep }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refresh' as const) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      racing: fc.option(fc.record({ step: hostStep, delayMs: fc.integer({ min: 0, max: 4 }) })),
    }),
  },
);

/** One send as the browser made it, and what the server answered. */
interface SendRecord {
  readonly text: string;
  readonly seen: Snapshot;
  readonly status: number;
}

describe('409 rule model: no send lands in a conversation the browser did not see', () => {
  let h: TestHost;
  let db: HostDb;
  let projects: string[];
  let counter = 0;
  const outcomes = { ok: 0, refused: 0 };

  beforeAll(async () => {
    h = await startTestHost({ echoDelayMs: 1 });
    const { controller } = h.host;
    const first = (await getState(h)).projectId;
    const extra = await controller.executor.run(() =>
      ['alpha', 'beta'].map((name) => {
        const folder = join(h.dataDir, 'workspace', name);
        mkdirSync(folder, { recursive: true });
        return controller.projects.createProject(name, folder);
      }),
    );
    projects = [first, ...extra];
    db = openHostDb(h.dataDir);
  });
  afterAll(async () => {
    db?.close();
    await h?.close(true);
  });

  const runHostStep = (s: HostStep): Promise<unknown> => {
    const { controller } = h.host;
    return controller.executor.run(() => {
      switch (s.kind) {
        case 'newConversation':
          return controller.conversations.newConversation(
            s.project === null ? undefined : projects[s.project],
          );
        case 'selectConversation': {
          const list = controller.readState().conversations.list;
          const target = list[s.pick % list.length];
          return target && controller.conversations.selectConversation(target.id);
        }
        case 'selectProject':
          return controller.projects.selectProject(projects[s.pick % projects.length]!);
        default:
          return s satisfies never;
      }
    });
  };

  /** Waits until no reply runs in any conversation (a send into a busy one would be 422). */
  const settle = () => waitFor(() => (db.streamingCount() === 0 ? true : undefined));

  it('every send lands in the conversation it was made from, or is 409 and lands nowhere', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        await settle();
        let seen = await getState(h);
        const sends: SendRecord[] = [];
        for (const s of steps) {
          if (s.kind === 'host') {
            await runHostStep(s.step);
          } else if (s.kind === 'refresh') {
            seen = await getState(h);
          } else {
            const text = `model send ${++counter} ${Math.random().toString(36).slice(2)}`;
            const racing = s.racing;
            const race = racing
              ? new Promise((resolve) => setTimeout(resolve, racing.delayMs)).then(() =>
                  runHostStep(racing.step),
                )
              : Promise.resolve();
            const response = await postAction(h, { action: 'send', text, ...guardOf(seen) });
            await response.body?.cancel();
            await race;
            sends.push({ text, seen, status: response.status });
            await settle();
          }
        }
        for (const send of sends) {
          const landed = db.conversationsWithUserText(send.text);
          if (send.status === 200) expect(landed).toEqual([send.seen.conversationId]);
          else {
            expect(send.status).toBe(409);
            expect(landed).toEqual([]);
          }
        }
        // The model proves something only if both outcomes happen; across the runs they must.
        outcomes.ok += sends.filter((x) => x.status === 200).length;
        outcomes.refused += sends.filter((x) => x.status === 409).length;
      }),
      { numRuns: 30 },
    );
    expect(outcomes.ok).toBeGreaterThan(5);
    expect(outcomes.refused).toBeGreaterThan(5);
  });
});
