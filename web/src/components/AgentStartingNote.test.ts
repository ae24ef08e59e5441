// @vitest-environment happy-dom
import { aMessage } from '@webbridge/contract/testing';
import { h } from 'preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdown } from '../markdown/loadMarkdown';
import { agentSnapshot, chromeSession, mountWith, unmount } from '../mocks/agentChromeTestKit';
import { mockScenario } from '../mocks/mockScenario';
import type { Snapshot } from '../state/types';
import { MessageItem } from './MessageItem';

/** The agent snapshot, its conversation the current one, with the agent `fake` in `state`. */
function withAgent(state: 'starting' | 'ready'): Snapshot {
  const snapshot = agentSnapshot();
  const list = snapshot.conversations.list.map((c) =>
    c.id === snapshot.conversationId ? { ...c, agentId: 'fake' } : c,
  );
  const agents = snapshot.agents?.list.map((a) => (a.name === 'fake' ? { ...a, state } : a)) ?? [];
  return {
    ...snapshot,
    conversations: { ...snapshot.conversations, list },
    agents: { list: agents, ...(snapshot.agents?.session ? { session: snapshot.agents.session } : {}) },
  };
}

const reply = aMessage({ role: 'assistant', text: '', status: 'streaming' });
const item = (message = reply) =>
  h(MessageItem, {
    message,
    isLast: true,
    isLastReply: true,
    approvals: [],
    index: 1,
    setSize: 2,
    measure: () => {},
  });

describe('the note of an agent that is starting', () => {
  // The markdown renderer is a lazy module a message asks for: loaded before the tests, not
  // while the environment is torn down after them (an unhandled rejection that failed a run).
  beforeAll(() => loadMarkdown());
  let root: HTMLElement | undefined;
  afterEach(() => {
    if (root) unmount(root);
    root = undefined;
  });

  // Seen driving opencode after a host restart: the first send starts the agent (seconds on a
  // loaded machine) and the reply said "Writing…" over nothing all that time.
  it('says the agent is starting in the empty reply that waits for it, and nothing once it is ready', async () => {
    root = await mountWith(chromeSession(withAgent('starting')).session, item());
    expect(root.querySelector('[role="status"].agent-starting')?.textContent).toBe('Starting Fake Agent…');
    unmount(root);
    root = await mountWith(chromeSession(withAgent('ready')).session, item());
    expect(root.querySelector('.agent-starting')).toBeNull();
    unmount(root);
    // Words arrived: the reply speaks for itself.
    root = await mountWith(chromeSession(withAgent('starting')).session, item({ ...reply, text: 'Hi' }));
    expect(root.querySelector('.agent-starting')).toBeNull();
    unmount(root);
    // The built-in loop has no agent to start.
    root = await mountWith(chromeSession(mockScenario()).session, item());
    expect(root.querySelector('.agent-starting')).toBeNull();
  });
});
