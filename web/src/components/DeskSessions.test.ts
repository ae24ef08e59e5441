// @vitest-environment happy-dom
import { h } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import { mockScenario } from '../mocks/mockScenario';
import { DeskSessions, newestFirst } from './DeskSessions';

describe('newestFirst', () => {
  it('orders by updatedAt, newest first, sessions without a date last', () => {
    const sorted = newestFirst([
      { sessionId: 'a', cwd: '/w', updatedAt: '2026-11-20T09:00:00Z' },
      { sessionId: 'b', cwd: '/w' },
      { sessionId: 'c', cwd: '/w', updatedAt: '2026-11-28T10:00:00Z' },
    ]);
    expect(sorted.map((s) => s.sessionId)).toEqual(['c', 'a', 'b']);
  });
});

describe('DeskSessions', () => {
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  it('lists the agent’s sessions on a tap and continues the one chosen', async () => {
    const snapshot = mockScenario();
    const kit = chromeSession(snapshot);
    kit.action.mockResolvedValue({
      sessions: [
        { sessionId: 'old', cwd: '/nowhere', title: 'Old one', updatedAt: '2026-11-01T00:00:00Z' },
        { sessionId: 'new', cwd: '/nowhere', title: 'New one', updatedAt: '2026-11-28T00:00:00Z' },
      ],
    });
    const onOpened = vi.fn();
    root = await mountWith(
      kit.session,
      h(DeskSessions, { agentId: 'opencode', projects: snapshot.projects.list, onOpened }),
    );
    expect(kit.action).not.toHaveBeenCalled();
    await act(async () => {
      root?.querySelector('button')?.click();
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(kit.action).toHaveBeenCalledWith({ action: 'agentSessions', agentId: 'opencode' });
    const titles = [...(root?.querySelectorAll('.desk-session-title') ?? [])].map((e) => e.textContent);
    expect(titles).toEqual(['New one', 'Old one']);
    await act(async () => {
      root?.querySelector<HTMLButtonElement>('button[aria-label="Continue: New one"]')?.click();
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(kit.act).toHaveBeenCalledWith({
      action: 'openAgentSession',
      agentId: 'opencode',
      sessionId: 'new',
    });
    expect(onOpened).toHaveBeenCalledOnce();
  });
});
