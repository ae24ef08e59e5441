// @vitest-environment happy-dom
import { aMessage } from '@webbridge/contract/testing';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { en } from '../i18n/catalogues/en';
import { loadMarkdown } from '../markdown/loadMarkdown';
import { agentSnapshot } from '../mocks/agentChromeTestKit';
import { mockScenario } from '../mocks/mockScenario';
import type { Session } from '../state/createSession';
import { SessionContext } from '../state/SessionContext';
import type { Message, Snapshot } from '../state/types';
import { MessageList } from './MessageList';

const COUNT = 2000;

function conversation(count: number, base = mockScenario()): Snapshot {
  const messages: Message[] = Array.from({ length: count }, (_, i) =>
    aMessage({
      id: `m${i}`,
      parentId: i === 0 ? null : `m${i - 1}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      text: `message **${i}**`,
      createdAt: i,
    }),
  );
  return { ...base, conversations: { ...base.conversations, messages } };
}

describe('MessageList', () => {
  let root: HTMLElement;
  // The replies' markdown renderer is a lazy module the list asks for: loaded before the tests,
  // not while the environment is torn down after them.
  beforeAll(() => loadMarkdown());
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  const mount = (snapshot: Snapshot) =>
    act(() => {
      render(h(SessionContext.Provider, { value: {} as Session }, h(MessageList, { snapshot })), root);
    });
  const ids = () => [...root.querySelectorAll('.message')].map((li) => li.getAttribute('data-message-id'));
  const busy = () => root.querySelector('.message-list')?.getAttribute('aria-busy');
  // Where the window sits (at the end) needs layout: tests/browser/longConversation.test.ts.
  it('holds only a window of a long conversation, each message saying its place in the whole', async () => {
    await mount(conversation(COUNT));
    const shown = [...root.querySelectorAll('.message')];
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(60);
    for (const li of shown) {
      const index = Number(li.getAttribute('data-message-id')?.slice(1));
      expect(li.getAttribute('aria-posinset')).toBe(String(index + 1));
      expect(li.getAttribute('aria-setsize')).toBe(String(COUNT));
    }
    expect(busy()).toBe('false');
  });

  // Seen on the agent screenshots: an ACP agent's conversation only goes forward (the host
  // answers edit, regenerate, continue and branch with a 422), yet its messages offered them,
  // so every tap on one was an error.
  it("offers edit and regenerate in the built-in loop's conversation, none of them in an agent's", async () => {
    const labels = () => [...root.querySelectorAll('.message-actions button')].map((b) => b.textContent);
    await mount(conversation(4));
    expect(labels()).toEqual([en.edit, en.edit, en.regenerate]);
    await mount(conversation(4, agentSnapshot()));
    expect(labels()).toEqual([]);
  });

  it('renders a short conversation whole at once', async () => {
    await mount(conversation(5));
    expect(ids()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(busy()).toBe('false');
  });

  it('holds the new list when it gets shorter (another branch)', async () => {
    const long = conversation(COUNT);
    await mount(long);
    const shorter = conversation(35, long);
    await mount(shorter);
    expect(ids()).toContain('m0');
    expect(root.querySelector('[data-message-id="m0"]')?.getAttribute('aria-setsize')).toBe('35');
  });

  it('keeps the element of every unchanged message while the last one grows', async () => {
    const before = conversation(6);
    await mount(before);
    const first = root.querySelector('[data-message-id="m0"] .body');
    const messages = before.conversations.messages.slice();
    const last = messages[5] as Message;
    messages[5] = { ...last, text: `${last.text} and more`, status: 'streaming' };
    await mount({ ...before, conversations: { ...before.conversations, messages } });
    expect(root.querySelector('[data-message-id="m0"] .body')).toBe(first);
    expect(root.querySelector('[data-message-id="m5"]')?.textContent).toContain('and more');
  });
});
