// @vitest-environment happy-dom
import { h } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import { agentSnapshot, chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import { mockScenario } from '../mocks/mockScenario';
import { AgentUnavailableBar } from './AgentUnavailableBar';

describe('AgentUnavailableBar', () => {
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  it('says why an agent conversation cannot continue, and nothing when it can', async () => {
    root = await mountWith(chromeSession(mockScenario()).session, h(AgentUnavailableBar, {}));
    expect(root.textContent).toBe('');
    unmount(root);
    const stuck = agentSnapshot({ canContinue: false, reason: 'The agent cannot reopen this session.' });
    root = await mountWith(chromeSession(stuck).session, h(AgentUnavailableBar, {}));
    expect(root.querySelector('[role="status"]')?.textContent).toBe(
      'This conversation cannot continue: The agent cannot reopen this session.',
    );
  });
});
