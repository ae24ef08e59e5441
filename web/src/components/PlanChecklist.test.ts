// @vitest-environment happy-dom
import { h } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { agentSnapshot, chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import { PlanChecklist } from './PlanChecklist';

describe('PlanChecklist', () => {
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  const plan = [
    { content: 'Read', priority: 'medium', status: 'completed' },
    { content: 'Fix', priority: 'high', status: 'in_progress' },
    { content: 'Test', priority: 'low', status: 'pending' },
  ] as const;

  it('shows the plan with its progress and each status in words', async () => {
    root = await mountWith(
      chromeSession(agentSnapshot({ plan: [...plan] }, true)).session,
      h(PlanChecklist, {}),
    );
    expect(root.querySelector('summary')?.textContent).toBe('Plan1 of 3 done');
    const entries = [...root.querySelectorAll('.plan-entry')].map((e) => e.className);
    expect(entries).toEqual([
      'plan-entry plan-completed',
      'plan-entry plan-in_progress',
      'plan-entry plan-pending',
    ]);
    expect(root.querySelector('.plan-in_progress .visually-hidden')?.textContent).toBe('In progress');
  });

  it('is gone once every entry is done and the agent has stopped, and when there is no plan', async () => {
    const done = plan.map((e) => ({ ...e, status: 'completed' as const }));
    root = await mountWith(chromeSession(agentSnapshot({ plan: done }, false)).session, h(PlanChecklist, {}));
    expect(root.querySelector('.plan')).toBeNull();
    unmount(root);
    root = await mountWith(chromeSession(agentSnapshot({ plan: [] }, true)).session, h(PlanChecklist, {}));
    expect(root.querySelector('.plan')).toBeNull();
  });
});
