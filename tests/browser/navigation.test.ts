import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import type { TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE, shot } from './browserHarness';
import { LONG_REPLY_PROMPT, seedConversation, startScriptedHost } from './scriptedModel';

/** Pixels between the bottom of the visible messages and the end of the list. */
const fromBottom = (page: Page) =>
  page.evaluate(
    "(() => { const el = document.querySelector('.messages'); return el.scrollHeight - el.scrollTop - el.clientHeight; })()",
  ) as Promise<number>;

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

describe('moving around in Chromium: jump to latest, search, shortcuts', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    // 60 ms a word: the long reply streams for several seconds.
    [browser, h] = await Promise.all([launchBrowser(), startScriptedHost(60)]);
    await seedConversation(h.host, 15);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('offers "jump to latest" only when scrolled away while a reply streams, and it goes to the end', async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE);
    try {
      const jump = page.getByRole('button', { name: 'Jump to latest' });
      await send(page, LONG_REPLY_PROMPT);
      const streaming = page.locator('.message-assistant.status-streaming');
      await streaming.waitFor();
      // The reply by its id: the list holds only the messages near the screen, so right after
      // a jump "the last reply in the page" can still be one of the window at the top.
      const replyId = await streaming.getAttribute('data-message-id');
      // Following the reply: no button.
      await page.waitForTimeout(300);
      expect(await jump.count()).toBe(0);
      await page.locator('.messages').evaluate((el) => {
        el.scrollTop = 0;
      });
      await jump.waitFor();
      await shot(page, 'phone-jump-to-latest');
      await jump.click();
      await expect.poll(() => jump.count()).toBe(0);
      // At the end (a word that just arrived may be a line ahead of the scroll for a frame).
      expect(await fromBottom(page)).toBeLessThan(48);
      // Pinned again: it keeps following the reply to its end.
      const reply = page.locator(`[data-message-id="${replyId}"]`);
      await expect.poll(() => reply.getAttribute('class'), { timeout: 20_000 }).toContain('status-complete');
      await expect.poll(() => fromBottom(page)).toBeLessThan(2);
      // Scrolled up once the reply is complete: nothing streams, no button.
      await page.locator('.messages').evaluate((el) => {
        el.scrollTop = 0;
      });
      await page.waitForTimeout(200);
      expect(await jump.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 40_000);

  it('searches the conversations by title, ignoring case and accents', async () => {
    const { projectId } = await getState(h);
    for (const title of ['Trip to Zürich', 'Budget 2027', 'Zurich hotels'])
      await act(h, { action: 'newConversation', projectId, title });
    const { page, problems, context } = await openConnected(browser, h);
    try {
      const search = page.getByRole('searchbox', { name: 'Search conversations' });
      const titles = () => page.locator('.conversations > li').allTextContents();
      await search.fill('zurich');
      await expect.poll(async () => (await titles()).length).toBe(2);
      expect((await titles()).join(' ')).toMatch(/Trip to Zürich/);
      expect((await titles()).join(' ')).toMatch(/Zurich hotels/);
      await search.fill('hotels ZUR');
      await expect.poll(async () => (await titles()).length).toBe(1);
      await shot(page, 'desktop-search');
      await search.fill('nothing like this');
      await page.getByText('No conversation title contains “nothing like this”.').waitFor();
      expect(await titles()).toEqual([]);
      await search.fill('');
      await expect.poll(async () => (await titles()).length).toBeGreaterThanOrEqual(4);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('closes the shortcuts with an Escape pressed as soon as they are drawn', async () => {
    // A clean-clone CI run pressed Escape right after the button said it was open, and the
    // popover stayed: its Escape listener came with an effect run after paint.
    const { page, problems, context } = await openConnected(browser, h);
    try {
      // The first moment the popover is in the page, an Escape arrives. (A string: the tests'
      // types have no DOM, as for fromBottom above.)
      const stillOpen = (await page.evaluate(`new Promise((resolve) => {
        new MutationObserver((_, observer) => {
          if (!document.getElementById('shortcuts-popover')) return;
          observer.disconnect();
          document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
          setTimeout(() => resolve(document.getElementById('shortcuts-popover') !== null), 300);
        }).observe(document.body, { childList: true, subtree: true });
        document.querySelector('.shortcuts-button').click();
      })`)) as boolean;
      expect(stillOpen).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keyboard: ? lists the shortcuts, / focuses the composer, Ctrl+Shift+O starts a chat, Esc stops a reply', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    try {
      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      const text = await help.textContent();
      for (const label of [
        'New chat',
        'Write a message',
        'Find in this conversation',
        'Stop the reply',
        'Show these shortcuts',
      ])
        expect(text).toContain(label);
      expect(text).toMatch(/Ctrl\s*\+\s*Shift\s*\+\s*O/);
      expect(text).toMatch(/Ctrl\s*\+\s*F/);
      await shot(page, 'desktop-shortcuts');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
      // The button opens it too, and says so.
      const button = page.getByRole('button', { name: 'Keyboard shortcuts' });
      await button.click();
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      await page.keyboard.press('/');
      expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Message');
      expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');

      // Ctrl+F from the composer opens find with its field focused; Esc goes back.
      await page.keyboard.press('Control+F');
      await page.locator('.find-bar').waitFor();
      expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe(
        'Find in this conversation',
      );
      await page.keyboard.press('Escape');
      await page.locator('.find-bar').waitFor({ state: 'detached' });
      expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe('Message');

      const before = await getState(h);
      await page.keyboard.press('Control+Shift+O');
      await expect
        .poll(async () => (await getState(h)).conversations.list.length)
        .toBe(before.conversations.list.length + 1);
      const now = await getState(h);
      expect(now.conversationId).not.toBe(before.conversationId);
      expect(now.conversations.messages).toEqual([]);
      // The page shows the new chat once its list has one more conversation: the chat it left
      // may be empty too (the search test's), so "No messages yet" alone can be the old one,
      // and a send from there is (rightly) a 409 asking where to send.
      await expect
        .poll(() => page.locator('li.conversation').count())
        .toBe(before.conversations.list.length + 1);
      await page.getByText('No messages yet', { exact: false }).waitFor();

      await send(page, LONG_REPLY_PROMPT);
      await page.locator('.message-assistant.status-streaming').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('.message-assistant.status-stopped').waitFor({ timeout: 5000 });
      expect((await getState(h)).conversations.run.state).toBe('idle');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);
});
