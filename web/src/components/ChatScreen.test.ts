// @vitest-environment node
import { Window } from 'happy-dom';
import { h, options, render, type VNode } from 'preact';
import { act } from 'preact/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockBridge, type MockBridge } from '../mocks/createMockBridge';
import type { Session } from '../state/createSession';

/**
 * A happy-dom page under Node's own fetch classes. Vitest's happy-dom environment replaces
 * Request and Headers with happy-dom's, which drop the Host header (a browser's forbidden
 * header) that the bridge requires of every request; so the page's globals are added here, and
 * only those Node does not have.
 */
function installPage(url: string): () => Promise<void> {
  const page = new Window({ url });
  const global = globalThis as unknown as Record<string, unknown>;
  const added: string[] = [];
  const keys = new Set<string>();
  for (let o: object | null = page; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o))
    for (const key of Object.getOwnPropertyNames(o)) keys.add(key);
  for (const key of keys) {
    if (key in global || key === 'constructor') continue;
    const value = (page as unknown as Record<string, unknown>)[key];
    const bound = typeof value === 'function' && key[0] === key[0]?.toLowerCase() ? value.bind(page) : value;
    Object.defineProperty(global, key, { value: bound, configurable: true, writable: true });
    added.push(key);
  }
  Object.defineProperty(global, 'window', { value: page, configurable: true, writable: true });
  added.push('window');
  return async () => {
    for (const key of added) delete global[key];
    await page.happyDOM.close();
  };
}

/**
 * Preact's render hook (`options._render`, named `__r` in its build): called each time a
 * component really renders, not when `shouldComponentUpdate` skips it. preact/hooks uses it.
 */
type RenderHook = { __r?: ((vnode: VNode) => void) | undefined };

/** Counts the renders of each function component by name while it is installed. */
function countRenders() {
  const counts = new Map<string, number>();
  const hooks = options as RenderHook;
  const previous = hooks.__r;
  hooks.__r = (vnode) => {
    previous?.(vnode);
    const type = vnode.type as { name?: string } | string;
    if (typeof type !== 'string' && type.name) counts.set(type.name, (counts.get(type.name) ?? 0) + 1);
  };
  return {
    counts,
    stop: () => {
      hooks.__r = previous;
    },
  };
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('until: timed out');
    await act(async () => await new Promise((r) => setTimeout(r, 5)));
  }
}

describe('ChatScreen while a reply streams', () => {
  let removePage: () => Promise<void>;
  // Imported once the page is there: modules read `navigator` and `document` as they load.
  let ui: {
    ChatScreen: typeof import('./ChatScreen').ChatScreen;
    SessionContext: typeof import('../state/SessionContext').SessionContext;
    createSession: typeof import('../state/createSession').createSession;
  };
  beforeAll(async () => {
    removePage = installPage('http://mock.test/');
    const [{ ChatScreen }, { SessionContext }, { createSession }] = await Promise.all([
      import('./ChatScreen'),
      import('../state/SessionContext'),
      import('../state/createSession'),
    ]);
    ui = { ChatScreen, SessionContext, createSession };
  });
  afterAll(() => removePage());

  let root: HTMLElement;
  let bridge: MockBridge;
  let session: Session;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
    bridge = createMockBridge({ accessCode: 'any', wordDelayMs: 25 });
    // The real bridge over the in-memory host, answering the session's own requests.
    session = ui.createSession({
      baseUrl: 'http://mock.test',
      accessCode: 'any',
      fetch: (input, init) => bridge.fetch(new Request(input, init)),
    });
  });
  afterEach(async () => {
    render(null, root);
    root.remove();
    session.close();
    await bridge.close();
  });

  it('renders only the message list for a streamed word: not the sidebar, top bar or composer', async () => {
    session.start();
    await act(() => {
      render(
        h(ui.SessionContext.Provider, { value: session }, h(ui.ChatScreen, { onDisconnect: () => {} })),
        root,
      );
    });
    await until(() => session.store.getState().status === 'live' && root.querySelector('.composer') !== null);

    const words = Array.from({ length: 12 }, (_, i) => `word${i}`).join(' ');
    const renders = countRenders();
    try {
      expect(await session.send(words, [])).toEqual({ kind: 'sent' });
      const lastText = () => session.store.getState().snapshot?.conversations.messages.at(-1)?.text ?? '';
      // Midway through the reply, the words seen so far have been rendered.
      await until(() => lastText().includes('word6'));
      await until(() => root.querySelector('.message-list')?.textContent?.includes('word6') ?? false);
    } finally {
      renders.stop();
    }
    const { counts } = renders;
    // The list did follow the words (several renders), so the counter works…
    expect(counts.get('MessageList') ?? 0).toBeGreaterThanOrEqual(4);
    // …and what shows none of them rendered at most for the send itself (a run starts, the
    // conversation gains its messages, the composer clears): a fixed few, never one per word.
    for (const name of [
      'Sidebar',
      'ConversationList',
      'ConversationItem',
      'TopBar',
      'ConnectionBadge',
      'ShortcutsHelp',
    ])
      expect({ name, renders: counts.get(name) ?? 0 }).toEqual({ name, renders: 0 });
    expect(counts.get('ChatScreen') ?? 0).toBeLessThanOrEqual(2);
    expect(counts.get('ComposerForm') ?? counts.get('Composer') ?? 0).toBeLessThanOrEqual(4);
  });
});
