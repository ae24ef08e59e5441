// @vitest-environment happy-dom
import { createStore, type Destination, destinationOf, type WritableStore } from '@webbridge/client-sdk';
import { h, options, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockScenario } from '../mocks/mockScenario';
import type { SendOutcome, Session } from '../state/createSession';
import { observable } from '../state/observable';
import { SessionContext } from '../state/SessionContext';
import type { Snapshot } from '../state/types';
import { createUploads } from '../state/uploads';
import { Composer, pasteIsFiles } from './Composer';
import { RENAMED_HOLD_MS } from './DestinationConfirm';

const destination: Destination = {
  instanceId: 'i',
  sessionRevision: 9,
  conversationId: 'c-trip',
  projectId: 'p-default',
  title: 'Trip notes',
};

function fakeSession(outcomes: SendOutcome[]) {
  const send = vi.fn(async (): Promise<SendOutcome> => outcomes.shift() ?? { kind: 'sent' });
  const sensitive = vi.fn(async () => true);
  const store = createStore();
  store.setStatus('live');
  const session = {
    send,
    sensitive,
    store,
    uploads: createUploads(async () => ({ id: 'x' })),
    notice: observable(null),
    // A pending picture shows a thumbnail read through its media id.
    media: { urlOf: (a: { id: string }) => `/api/media/${a.id}` },
  } as unknown as Session;
  return { session, send, sensitive, store };
}

describe('Composer', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  // The composer shows the store's state: a newer snapshot reaches it in the next frame.
  const mount = async (session: Session, snapshot: Snapshot) => {
    await act(() => {
      (session.store as WritableStore).replaceSnapshot(snapshot);
      render(h(SessionContext.Provider, { value: session }, h(Composer, {})), root);
    });
    await nextFrame();
  };
  const nextFrame = () =>
    act(async () => await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const textarea = () => root.querySelector('textarea') as HTMLTextAreaElement;
  const type = (text: string) =>
    act(() => {
      textarea().value = text;
      textarea().dispatchEvent(new Event('input', { bubbles: true }));
    });
  const press = (key: string, shiftKey = false) =>
    act(() => {
      textarea().dispatchEvent(
        new KeyboardEvent('keydown', { key, shiftKey, bubbles: true, cancelable: true }),
      );
    });
  const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));

  it('sends with Enter, with the pending attachments, and clears the text', async () => {
    const { session, send } = fakeSession([]);
    const snapshot = mockScenario();
    const withPending: Snapshot = {
      ...snapshot,
      conversations: {
        ...snapshot.conversations,
        pending: [
          {
            id: 'a1',
            name: 'a.png',
            type: 'image/png',
            size: 3,
            media: { id: 'm'.repeat(22), expiresAt: 1 },
          },
        ],
      },
    };
    await mount(session, withPending);
    await type('hello');
    await press('Enter', true);
    expect(send).not.toHaveBeenCalled();
    await press('Enter');
    await flush();
    expect(send).toHaveBeenCalledWith('hello', ['a1'], destinationOf(withPending));
    expect(textarea().value).toBe('');
  });

  it('renders the form again per key only when Send turns on or off or a command is typed', async () => {
    const { session } = fakeSession([]);
    await mount(session, mockScenario());
    let renders = 0;
    const diffed = options.diffed;
    options.diffed = (vnode) => {
      if (typeof vnode.type === 'function' && vnode.type.name === 'ComposerForm') renders++;
      diffed?.(vnode);
    };
    try {
      // A person typing: each key one input event with the text so far.
      for (const text of ['h', 'he', 'hel', 'hell', 'hello', 'hello ', 'hello w']) await type(text);
      const send = root.querySelector<HTMLButtonElement>('button.send');
      expect(send?.disabled).toBe(false);
      // One render: Send turned on with the first key; the six keys after it changed nothing shown.
      expect(renders).toBe(1);
      for (const text of ['', '/', '/h', 'h']) await type(text);
      // Send off, a command begun, its word grown, back to text with Send on.
      expect(renders).toBe(5);
    } finally {
      if (diffed) options.diffed = diffed;
      else delete options.diffed;
    }
  });

  it('after a 409 shows where the message would go and sends only when confirmed', async () => {
    const { session, send } = fakeSession([{ kind: 'changed', destination }]);
    await mount(session, mockScenario());
    await type('important');
    await press('Enter');
    await flush();
    const dialog = root.querySelector('[role="alertdialog"]');
    expect(dialog?.textContent).toContain('“Trip notes”');
    expect(textarea().value).toBe('important');
    expect(send).toHaveBeenCalledTimes(1);
    await flush();
    expect(send).toHaveBeenCalledTimes(1);

    const confirm = [...root.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Send to'));
    await act(() => confirm?.click());
    await flush();
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenLastCalledWith(
      'important',
      [],
      expect.objectContaining({ conversationId: 'c-trip' }),
    );
    expect(root.querySelector('[role="alertdialog"]')).toBeNull();
    expect(textarea().value).toBe('');
  });

  it('renames an open confirmation when the host moves on, and sends with the identity it shows', async () => {
    const { session, send } = fakeSession([{ kind: 'changed', destination }]);
    const first = mockScenario();
    await mount(session, first);
    await type('important');
    await press('Enter');
    await flush();
    const dialog = () => root.querySelector('[role="alertdialog"]');
    const confirm = () =>
      [...root.querySelectorAll('button')].find((b) =>
        b.textContent?.startsWith('Send to'),
      ) as HTMLButtonElement;
    expect(dialog()?.textContent).toContain('“Trip notes”');

    // The stream brings a newer state: the host is in another conversation now.
    const other = first.conversations.list.find((c) => c.id !== destination.conversationId);
    if (other === undefined) throw new Error('the scenario needs two conversations');
    const moved: Snapshot = {
      ...first,
      instanceId: destination.instanceId,
      sessionRevision: destination.sessionRevision + 1,
      conversationId: other.id,
      projectId: other.projectId,
    };
    await mount(session, moved);
    expect(dialog()?.textContent).toContain(`“${other.title}”`);
    expect(dialog()?.textContent).toContain('again');
    expect(confirm().textContent).toBe(`Send to “${other.title}”`);
    // Held a moment, so a click aimed at the old name does not send to the new one.
    expect(confirm().disabled).toBe(true);
    await act(() => confirm().click());
    expect(send).toHaveBeenCalledTimes(1);
    await act(async () => await new Promise((r) => setTimeout(r, RENAMED_HOLD_MS + 50)));
    expect(confirm().disabled).toBe(false);

    await act(() => confirm().click());
    await flush();
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenLastCalledWith('important', [], {
      instanceId: destination.instanceId,
      sessionRevision: destination.sessionRevision + 1,
      conversationId: other.id,
      projectId: other.projectId,
      title: other.title,
    });
  });

  it('keeps naming the 409 destination while the state on screen is older than it', async () => {
    const { session, send } = fakeSession([{ kind: 'changed', destination }]);
    const stale = { ...mockScenario(), instanceId: destination.instanceId, sessionRevision: 1 };
    await mount(session, stale);
    await type('important');
    await press('Enter');
    await flush();
    expect(root.querySelector('[role="alertdialog"]')?.textContent).toContain('“Trip notes”');
    const confirm = [...root.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Send to'));
    await act(() => confirm?.click());
    await flush();
    expect(send).toHaveBeenLastCalledWith('important', [], destination);
  });

  it('keeps the text and sends nothing when the person keeps editing after a 409', async () => {
    const { session, send } = fakeSession([{ kind: 'changed', destination }]);
    await mount(session, mockScenario());
    await type('draft');
    await press('Enter');
    await flush();
    const keep = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Keep editing');
    await act(() => keep?.click());
    expect(root.querySelector('[role="alertdialog"]')).toBeNull();
    expect(textarea().value).toBe('draft');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('clears the box at once, in the frame of the key press, and gives the text back if the send fails', async () => {
    let finish: (outcome: SendOutcome) => void = () => {};
    const send = vi.fn(() => new Promise<SendOutcome>((resolve) => (finish = resolve)));
    const session = {
      send,
      sensitive: vi.fn(async () => true),
      uploads: createUploads(async () => ({ id: 'x' })),
      notice: observable(null),
      store: createStore(),
    } as unknown as Session;
    await mount(session, mockScenario());
    await type('on a slow network');
    await press('Enter');
    expect(send).toHaveBeenCalledWith(
      'on a slow network',
      [],
      expect.objectContaining({ conversationId: 'c-welcome' }),
    );
    expect(textarea().value).toBe('');
    await act(async () => finish({ kind: 'failed' }));
    await flush();
    expect(textarea().value).toBe('on a slow network');
  });

  it('keeps what the person started typing while a failed send was on its way', async () => {
    let finish: (outcome: SendOutcome) => void = () => {};
    const send = vi.fn(() => new Promise<SendOutcome>((resolve) => (finish = resolve)));
    const session = {
      send,
      sensitive: vi.fn(async () => true),
      uploads: createUploads(async () => ({ id: 'x' })),
      notice: observable(null),
      store: createStore(),
    } as unknown as Session;
    await mount(session, mockScenario());
    await type('first');
    await press('Enter');
    await type('second');
    await act(async () => finish({ kind: 'failed' }));
    await flush();
    expect(textarea().value).toBe('second');
  });

  it('offers Stop instead of Send while a reply runs', async () => {
    const { session, send, sensitive } = fakeSession([]);
    const snapshot = mockScenario();
    await mount(session, {
      ...snapshot,
      conversations: { ...snapshot.conversations, run: { state: 'streaming', messageId: 'm2' } },
    });
    await type('more');
    await press('Enter');
    await flush();
    expect(send).not.toHaveBeenCalled();
    const stop = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Stop');
    await act(() => stop?.click());
    expect(sensitive).toHaveBeenCalledTimes(1);
  });

  it('while not live, offers no Stop for a reply that may have ended, says so, and shows what waits to be sent', async () => {
    const { session, sensitive, store } = fakeSession([]);
    const snapshot = mockScenario();
    await mount(session, {
      ...snapshot,
      conversations: { ...snapshot.conversations, run: { state: 'streaming', messageId: 'm2' } },
    });
    await act(() => {
      store.setStatus('reconnecting', Date.now() - 5_000);
      store.putPending({
        actionId: 'a-1',
        action: {
          action: 'send',
          text: 'sent in a tunnel',
          sessionRevision: 1,
          conversationId: 'c',
          projectId: 'p',
        },
        since: Date.now(),
        attempts: 1,
      });
    });
    await nextFrame();
    const stop = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Stop');
    expect(stop?.disabled).toBe(true);
    await act(() => stop?.click());
    expect(sensitive).not.toHaveBeenCalled();
    expect(root.querySelector('.composer-not-live')).not.toBeNull();
    const pending = root.querySelector('.pending-action');
    expect(pending?.textContent).toContain('sent in a tunnel');
    expect(pending?.textContent).toContain('Sending…');

    await act(() => {
      store.setStatus('live');
      store.removePending('a-1');
    });
    await nextFrame();
    expect(stop?.disabled).toBe(false);
    expect(root.querySelector('.composer-not-live')).toBeNull();
    expect(root.querySelector('.pending-action')).toBeNull();
  });
});

describe('pasteIsFiles', () => {
  const clip = (text: string, ...names: string[]) => ({
    files: names.map((name) => new File(['x'], name)) as unknown as FileList,
    getData: (format: string) => (format === 'text/plain' ? text : ''),
  });

  it('attaches files that come alone or with only their names', () => {
    expect(pasteIsFiles(clip('', 'image.png'))).toBe(true); // a screenshot
    expect(pasteIsFiles(clip('report.pdf', 'report.pdf'))).toBe(true); // copied in a file manager
    expect(pasteIsFiles(clip('a.pdf\r\nb.png\n', 'a.pdf', 'b.png'))).toBe(true);
    expect(pasteIsFiles(clip('/Users/ann/report.pdf', 'report.pdf'))).toBe(true);
  });

  it('keeps text as text, even with a picture of it', () => {
    expect(pasteIsFiles(clip('just words'))).toBe(false);
    expect(pasteIsFiles(clip('a\tb\n1\t2', 'image.png'))).toBe(false); // spreadsheet cells
    expect(pasteIsFiles(clip('report.pdf and more', 'report.pdf'))).toBe(false);
  });
});
