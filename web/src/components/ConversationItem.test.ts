// @vitest-environment happy-dom
import { aConversationSummary } from '@webbridge/contract/testing';
import { h, render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countingDates } from '../i18n/testing/countingDates';
import { ConversationItem } from './ConversationItem';

describe('ConversationItem', () => {
  let root: HTMLElement;
  beforeEach(() => {
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
  });

  // Issue 29: the sidebar's first render formatted every conversation's date for a tooltip,
  // and the first date formatted on the page makes its Intl.DateTimeFormat (ICU's data loaded:
  // ~0.1 s of a slow phone's opening), though the sidebar is a closed drawer on a phone.
  it('formats its date for the tooltip once the page is idle, not in its first render', async () => {
    const { formatters, dateTime, wrap } = countingDates();
    const createdAt = Date.UTC(2026, 10, 28, 12);
    render(
      wrap(
        h(ConversationItem, {
          conversation: aConversationSummary({ title: 'Trip', createdAt }),
          current: false,
          onNavigate: () => {},
        }),
      ),
      root,
    );
    expect(dateTime).not.toHaveBeenCalled();
    const button = () => root.querySelector('.conversation-open');
    expect(button()?.textContent).toBe('Trip');
    await vi.waitFor(() => expect(button()?.getAttribute('title')).toContain(formatters.dateTime(createdAt)));
    expect(dateTime).toHaveBeenCalledWith(createdAt);
  });
});
