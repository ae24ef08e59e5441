import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState, waitFor } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import {
  assertWebBuilt,
  DESKTOP,
  launchBrowser,
  openConnected,
  PHONE,
  recordOnMutation,
  shot,
} from './browserHarness';

describe('chat in Chromium against the reference host', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 25 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('sends a message and shows the reply growing as it streams, rendered as markdown', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const text = [
      'Here is **bold** and a [link](https://example.com/a) plus `inline` code.',
      '',
      '- one',
      '- two',
      '',
      '```js',
      'console.log(1);',
      '```',
      '',
      'The end of a reasonably long reply so that it takes a while to stream word by word here.',
    ].join('\n');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(text);
    // Records each length the reply's text had, to prove that it grew in steps.
    const lengths = await recordOnMutation(
      page,
      "[...document.querySelectorAll('.message-assistant .body')].at(-1)?.textContent.length ?? 0",
    );
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('');
    const reply = page.locator('.message-assistant').last();
    await reply.locator('.status-label-streaming').waitFor();
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await shot(page, 'desktop-streaming');
    await reply.locator('a[href="https://example.com/a"]').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 10_000 });
    await expect.poll(() => reply.getAttribute('class')).toContain('status-complete');

    const distinct = new Set((await lengths()).filter((n) => typeof n === 'number' && n > 0));
    expect(distinct.size).toBeGreaterThan(5);

    const link = reply.locator('a[href="https://example.com/a"]');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');
    expect(await reply.locator('strong').first().textContent()).toBe('bold');
    expect(await reply.locator('ul > li').count()).toBe(2);
    expect(await reply.locator('pre code').textContent()).toBe('console.log(1);');
    // The user's own message stays plain text.
    expect(await page.locator('.message-user .body').first().textContent()).toContain('**bold**');
    await shot(page, 'desktop-chat');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('stops a reply with Esc, continues it, edits a message into a new branch and switches back', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(long);
    // The conversation already ends with a long reply: wait for the new one, not that one.
    const replies = await page.locator('.message-assistant').count();
    await box.press('Enter');
    const reply = page.locator('.message-assistant').nth(replies);
    await reply.locator('.status-label-streaming').waitFor();
    await expect
      .poll(async () => (await reply.locator('.body').textContent())?.length ?? 0)
      .toBeGreaterThan(20);
    await page.keyboard.press('Escape');
    await reply.locator('.status-label-stopped').waitFor();
    const stoppedText = (await reply.locator('.body').textContent()) ?? '';
    expect(stoppedText.length).toBeLessThan(long.length);
    expect((await getState(h)).conversations.messages.at(-1)?.status).toBe('stopped');

    await reply.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => reply.getAttribute('class'), { timeout: 10_000 }).toContain('status-complete');
    expect(await reply.locator('.body').textContent()).toBe(long);

    // Shift+Enter makes a new line instead of sending.
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.type('second line');
    expect(await box.inputValue()).toBe('first line\nsecond line');
    await box.press('Enter');
    await page.locator('.message-user .body', { hasText: 'second line' }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 10_000 });
    await expect
      .poll(() => page.locator('.message-assistant').last().getAttribute('class'))
      .toContain('status-complete');

    const user = page.locator('.message-user').last();
    await user.getByRole('button', { name: 'Edit' }).click();
    const editor = user.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('an edited question');
    await shot(page, 'desktop-editing');
    await user.getByRole('button', { name: 'Save and answer' }).click();
    const edited = page.locator('.message-user').last();
    await edited.locator('.body', { hasText: 'an edited question' }).waitFor();
    await expect.poll(() => edited.locator('.branch-position').textContent()).toBe('2/2');
    await expect
      .poll(() => page.locator('.message-assistant').last().textContent())
      .toContain('an edited question');
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 10_000 });

    await edited.getByRole('button', { name: 'Previous version' }).click();
    await expect
      .poll(() => page.locator('.message-user').last().locator('.branch-position').textContent())
      .toBe('1/2');
    expect(await page.locator('.message-user').last().locator('.body').textContent()).toBe(
      'first line\nsecond line',
    );

    // Regenerate makes a second version of the last reply.
    await page.locator('.message-assistant').last().getByRole('button', { name: 'Regenerate' }).click();
    await expect
      .poll(() => page.locator('.message-assistant').last().locator('.branch-position').textContent(), {
        timeout: 10_000,
      })
      .toBe('2/2');
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 10_000 });
    await shot(page, 'desktop-branches');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works on a phone-sized screen in dark mode, with the sidebar as a drawer', async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE, 'dark');
    await page.locator('.message').first().waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
    expect(await sidebar.isVisible()).toBe(false);
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'phone-chat-dark');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect.poll(() => sidebar.isVisible()).toBe(true);
    await page.waitForTimeout(250);
    await shot(page, 'phone-drawer-dark');
    await page.keyboard.press('Escape');
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(21, 23, 28)');
    expect(problems).toEqual([]);
    await context.close();
    expect(DESKTOP.width).toBeGreaterThan(PHONE.width);
  });

  it('follows a host-side conversation switch live', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const before = await getState(h);
    const created = await h.host.controller.executor.run(() =>
      h.host.controller.conversations.newConversation(undefined, 'Made on the phone'),
    );
    await page.getByRole('heading', { name: 'Made on the phone' }).waitFor();
    expect(await page.locator('.conversation.current').textContent()).toContain('Made on the phone');
    await h.host.controller.executor.run(() =>
      h.host.controller.conversations.selectConversation(before.conversationId),
    );
    await expect.poll(() => page.locator('.topbar-title').textContent()).not.toBe('Made on the phone');
    expect(created.conversationId).not.toBe(before.conversationId);
    await waitFor(() => undefined === problems[0] || undefined);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates, renames and deletes conversations, and applies the theme setting', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const count = async () => (await getState(h)).conversations.list.length;
    const before = await count();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await expect.poll(count).toBe(before + 1);
    const created = await getState(h);
    const title =
      created.conversations.list.find((c) => c.id === created.conversationId)?.title || 'New chat';
    await page.getByRole('heading', { name: title }).waitFor();

    await page
      .locator('.conversation.current')
      .getByRole('button', { name: /^Rename/ })
      .click();
    const field = page.getByRole('textbox', { name: /^New name for/ });
    await field.fill('Renamed here');
    await field.press('Enter');
    await page.getByRole('heading', { name: 'Renamed here' }).waitFor();
    expect((await getState(h)).conversations.list.some((c) => c.title === 'Renamed here')).toBe(true);

    await page.getByRole('button', { name: 'Delete Renamed here' }).click();
    await page.locator('.conversation-confirm').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(count).toBe(before);
    // The host has deleted it; the page shows that once the change has reached it.
    await expect.poll(() => page.locator('.conversation', { hasText: 'Renamed here' }).count()).toBe(0);

    await page.locator('.settings > summary').click();
    await page.getByLabel('Theme').selectOption('dark');
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    await expect
      .poll(() => page.evaluate('getComputedStyle(document.body).backgroundColor'))
      .toBe('rgb(21, 23, 28)');
    expect((await getState(h)).settings.theme).toBe('dark');
    await page.locator('details.panel', { hasText: 'Tools' }).locator('summary').click();
    await shot(page, 'desktop-settings-dark');
    await page.getByLabel('Theme').selectOption('system');
    await expect.poll(async () => (await getState(h)).settings.theme).toBe('system');
    expect(problems).toEqual([]);
    await context.close();
  });
});
