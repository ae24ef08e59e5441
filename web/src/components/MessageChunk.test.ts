// @vitest-environment happy-dom
import { h, options, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockScenario } from '../mocks/mockScenario';
import type { Session } from '../state/createSession';
import { SessionContext } from '../state/SessionContext';
import type { Message, Snapshot } from '../state/types';
import { MessageList } from './MessageList';

function conversation(count: number, base = mockScenario()): Snapshot {
  const messages: Message[] = Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    parentId: i === 0 ? null : `m${i - 1}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: `message ${i}`,
    status: 'complete',
    createdAt: i,
    attachments: [],
    sibling: { index: 0, count: 1 },
  }));
  return { ...base, conversations: { ...base.conversations, messages } };
}

/** One more word on the last message, as the reducer does: the other messages kept. */
function withWord(snapshot: Snapshot): Snapshot {
  const messages = snapshot.conversations.messages.slice();
  const last = messages.at(-1) as Message;
  messages[messages.length - 1] = { ...last, text: `${last.text} word`, status: 'streaming' };
  return { ...snapshot, conversations: { ...snapshot.conversations, messages } };
}

describe('MessageList while a reply streams', () => {
  let root: HTMLElement;
  let diffed = 0;
  const previous = options.diffed;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
    // Every element and component Preact compares, whether it renders again or not.
    options.diffed = (vnode) => {
      diffed++;
      previous?.(vnode);
    };
  });
  afterEach(() => {
    if (previous) options.diffed = previous;
    else delete options.diffed;
    render(null, root);
    root.remove();
  });

  const mount = (snapshot: Snapshot) =>
    act(() => {
      render(h(SessionContext.Provider, { value: {} as Session }, h(MessageList, { snapshot })), root);
    });

  /** What Preact compares for one streamed word once every message is in the list. */
  async function costOfAWord(count: number): Promise<number> {
    let snapshot = conversation(count);
    await mount(snapshot);
    for (
      let i = 0;
      i < 200 && root.querySelector('.message-list')?.getAttribute('aria-busy') !== 'false';
      i++
    )
      await act(async () => await new Promise((r) => setTimeout(r, 5)));
    expect(root.querySelectorAll('.message')).toHaveLength(count);
    snapshot = withWord(snapshot);
    await mount(snapshot);
    diffed = 0;
    await mount(withWord(snapshot));
    return diffed;
  }

  it('compares about as much for a word after 1,000 messages as after 100 (it compared every message)', async () => {
    const short = await costOfAWord(100);
    render(null, root);
    const long = await costOfAWord(1_000);
    // The chunks grow with the length (20 against 2); every message did (1,000 against 100:
    // 17,508 against 1,758 on the old list). Stand-ins drawn in full while the page idles add a
    // few dozen either way on a loaded machine (458 against 536 seen in CI), hence the margin.
    expect(long).toBeLessThan(short * 1.5);
  });
});
