// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FindMatch } from '../find/findInMessages';
import type { Message } from '../state/types';
import { FIND_DEBOUNCE_MS, FindBar } from './FindBar';

const message = (id: string, text: string) => ({ id, text }) as Message;
const MESSAGES = [
  message('m1', 'The Zürich trip was in May.'),
  message('m2', 'No trip this year.'),
  message('m3', 'ZURICH again? Zurich, then.'),
];

describe('FindBar', () => {
  let root: HTMLElement;
  let onGo: ReturnType<typeof vi.fn<(match: FindMatch | null, query: string) => void>>;
  let onClose: ReturnType<typeof vi.fn<() => void>>;
  beforeEach(() => {
    vi.useFakeTimers();
    root = document.createElement('div');
    document.body.append(root);
    onGo = vi.fn();
    onClose = vi.fn();
    act(() => {
      render(h(FindBar, { messages: MESSAGES, focusSeq: 1, onGo, onClose }), root);
    });
  });
  afterEach(() => {
    act(() => render(null, root));
    root.remove();
    vi.useRealTimers();
  });

  const field = () => root.querySelector('input') as HTMLInputElement;
  const count = () => root.querySelector('[role="status"]')?.textContent;
  const type = (text: string) =>
    act(() => {
      field().value = text;
      field().dispatchEvent(new Event('input', { bubbles: true }));
    });
  const key = (init: KeyboardEventInit, target: Element = field()) => {
    const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
    act(() => {
      target.dispatchEvent(event);
    });
    return event;
  };
  const wait = () =>
    act(() => {
      vi.advanceTimersByTime(FIND_DEBOUNCE_MS + 10);
    });
  const lastGo = () => onGo.mock.calls.at(-1);

  it('takes the focus, and searches once typing pauses, going to the latest match', () => {
    expect(document.activeElement).toBe(field());
    type('zur');
    type('zurich');
    expect(onGo).not.toHaveBeenCalledWith(expect.objectContaining({ messageId: 'm1' }), 'zurich');
    expect(count()).toBe('');
    wait();
    expect(lastGo()).toEqual([{ messageId: 'm3', occurrence: 1 }, 'zurich']);
    expect(count()).toBe('3 of 3');
  });

  it('Enter goes to the next match and Shift+Enter to the previous, wrapping around', () => {
    type('zurich');
    wait();
    key({ key: 'Enter' });
    expect(lastGo()?.[0]).toEqual({ messageId: 'm1', occurrence: 0 });
    expect(count()).toBe('1 of 3');
    key({ key: 'Enter' });
    expect(lastGo()?.[0]).toEqual({ messageId: 'm3', occurrence: 0 });
    key({ key: 'Enter', shiftKey: true });
    key({ key: 'Enter', shiftKey: true });
    expect(lastGo()?.[0]).toEqual({ messageId: 'm3', occurrence: 1 });
    expect(count()).toBe('3 of 3');
  });

  it('Enter right after typing searches at once and goes to the latest match, not one past it', () => {
    type('trip');
    key({ key: 'Enter' });
    expect(lastGo()).toEqual([{ messageId: 'm2', occurrence: 0 }, 'trip']);
    expect(count()).toBe('2 of 2');
    wait();
    expect(count()).toBe('2 of 2');
  });

  it('says when nothing matches, and the buttons wait for a match', () => {
    type('bern');
    wait();
    expect(count()).toBe('No matches');
    expect(lastGo()).toEqual([null, 'bern']);
    const previous = root.querySelector('button[aria-label="Previous match"]') as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
  });

  it('Escape closes the bar and is marked handled, so the page does not also stop the reply', () => {
    let seenByPage: boolean | undefined;
    const page = (event: KeyboardEvent) => {
      seenByPage = event.defaultPrevented;
    };
    document.addEventListener('keydown', page);
    try {
      key({ key: 'Escape' });
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(seenByPage).toBe(true);
      // From a button of the bar too.
      key({ key: 'Escape' }, root.querySelector('button[aria-label="Close find"]') as Element);
      expect(onClose).toHaveBeenCalledTimes(2);
    } finally {
      document.removeEventListener('keydown', page);
    }
  });

  it('counts again when the conversation changes, staying on the same match', () => {
    type('zurich');
    wait();
    key({ key: 'Enter' });
    expect(count()).toBe('1 of 3');
    const calls = onGo.mock.calls.length;
    act(() => {
      render(
        h(FindBar, {
          messages: [message('m0', 'zurich first'), ...MESSAGES],
          focusSeq: 1,
          onGo,
          onClose,
        }),
        root,
      );
    });
    wait();
    expect(count()).toBe('2 of 4');
    // The view stays where it is: no new go.
    expect(onGo.mock.calls.length).toBe(calls);
  });
});
