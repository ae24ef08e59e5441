// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockScenario } from '../mocks/mockScenario';
import type { Session } from '../state/createSession';
import { SessionContext } from '../state/SessionContext';
import type { Message, Snapshot } from '../state/types';
import { FIRST_RENDER, MessageList, RENDER_STEP } from './MessageList';

const COUNT = FIRST_RENDER + 2 * RENDER_STEP + 7;

function conversation(count: number, base = mockScenario()): Snapshot {
  const messages: Message[] = Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    parentId: i === 0 ? null : `m${i - 1}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: `message **${i}**`,
    status: 'complete',
    createdAt: i,
    attachments: [],
    sibling: { index: 0, count: 1 },
  }));
  return { ...base, conversations: { ...base.conversations, messages } };
}

describe('MessageList', () => {
  let root: HTMLElement;
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
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++)
      await act(async () => await new Promise((r) => setTimeout(r, 5)));
    expect(check()).toBe(true);
  };

  it('shows the latest messages first, then adds the earlier ones above in steps', async () => {
    await mount(conversation(COUNT));
    expect(ids()).toHaveLength(FIRST_RENDER);
    expect(ids().at(-1)).toBe(`m${COUNT - 1}`);
    expect(busy()).toBe('true');
    const sizes = new Set<number>();
    await until(() => {
      sizes.add(ids().length);
      return ids().length === COUNT;
    });
    expect(ids()[0]).toBe('m0');
    expect(busy()).toBe('false');
    // More than one step, each at most RENDER_STEP messages.
    expect(sizes.size).toBeGreaterThan(1);
  });

  it('renders a short conversation whole at once', async () => {
    await mount(conversation(5));
    expect(ids()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(busy()).toBe('false');
  });

  it('never hides the latest messages when the list gets shorter (another branch)', async () => {
    const long = conversation(COUNT);
    await mount(long);
    const shorter = conversation(FIRST_RENDER - 5, long);
    await mount(shorter);
    expect(ids()).toHaveLength(FIRST_RENDER - 5);
    expect(ids()[0]).toBe('m0');
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
