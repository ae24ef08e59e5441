// @vitest-environment happy-dom
import { aMessage } from '@webbridge/contract/testing';
import { h, render } from 'preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '../i18n/catalogues/en';
import { countingDates } from '../i18n/testing/countingDates';
import { loadMarkdown } from '../markdown/loadMarkdown';
import { MessageItem } from './MessageItem';

describe('MessageItem', () => {
  // The markdown renderer is a lazy module a message asks for: loaded before the tests, not
  // while the environment is torn down after them (an unhandled rejection that failed a run).
  beforeAll(() => loadMarkdown());
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  // Issue 29: every message drawn formatted its date for the role's tooltip in its first
  // render, and the first one made the page's Intl.DateTimeFormat: 107-149 ms of the slow
  // phone's opening at 6x, for tooltips nobody sees before the page is idle.
  it("formats its date for the role's tooltip once the page is idle, not in its first render", async () => {
    const { formatters, dateTime, wrap } = countingDates();
    const createdAt = Date.UTC(2026, 10, 28, 12);
    render(
      wrap(
        h(MessageItem, {
          message: aMessage({ role: 'user', text: 'hello', createdAt }),
          isLast: true,
          isLastReply: false,
          approvals: [],
          index: 0,
          setSize: 1,
          measure: () => {},
        }),
      ),
      root,
    );
    expect(dateTime).not.toHaveBeenCalled();
    const role = () => root.querySelector('.role');
    expect(role()?.textContent).toBe(en.roleUser);
    await vi.waitFor(() => expect(role()?.getAttribute('title')).toBe(formatters.dateTime(createdAt)));
  });
});
