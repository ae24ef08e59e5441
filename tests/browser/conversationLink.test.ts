import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, getState } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, openPage, PHONE, shot } from './browserHarness';

// Issue 31, item 9: `/?conversation=` is a link anyone can send. Opening it must not move the
// host (every device follows the host's current conversation, and the next send lands there):
// the page names the conversation and switches only when the person taps.

describe('a link to a conversation', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 5 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  /** Opens `url` with a pairing link, paired under `name` (the suggested name is the watcher's). */
  async function openByLink(url: string, name: string) {
    const opened = await openPage(browser, `${url}#pair=${h.host.bridge.pairingToken('control')}`, PHONE);
    await opened.page.getByLabel('Device name').fill(name);
    await opened.page.getByRole('button', { name: 'Pair' }).click();
    await opened.page.locator('.badge[data-status="live"]').waitFor();
    return opened;
  }

  it('names the conversation in the page and switches the host only when the person opens it', async () => {
    const home = (await getState(h)).conversationId;
    const other = (await act(h, { action: 'newConversation', title: 'Linked elsewhere' }))
      .conversationId as string;
    await act(h, { action: 'selectConversation', conversationId: home });
    const before = (await getState(h)).sessionRevision;

    // A page already open elsewhere (another device): it must not be moved by the link.
    const watcher = await openConnected(browser, h, PHONE);
    const linkedPage = await openByLink(`${h.url}/?conversation=${other}`, 'Linked phone');
    const { page } = linkedPage;
    // Connected, and given time to act on the link: the host did not move.
    await page.waitForTimeout(500);
    const during = await getState(h);
    expect(during.conversationId).toBe(home);
    expect(during.sessionRevision).toBe(before);
    const bar = page.locator('.linked-conversation');
    await bar.waitFor();
    expect(await bar.textContent()).toContain('Linked elsewhere');
    // The query left the address.
    expect(page.url()).toBe(`${h.url}/`);
    await shot(page, 'phone-conversation-link');

    // "Stay here": the bar goes, the host stays.
    await page.getByRole('button', { name: 'Stay here' }).click();
    await expect.poll(() => bar.count()).toBe(0);
    expect((await getState(h)).conversationId).toBe(home);

    // Opened again, the person opens it: now the host switches (and the other page follows).
    await page.goto('about:blank');
    await page.goto(`${h.url}/?conversation=${other}`);
    await bar.waitFor();
    await page.getByRole('button', { name: 'Open it' }).click();
    await expect.poll(async () => (await getState(h)).conversationId).toBe(other);
    await expect.poll(() => bar.count()).toBe(0);
    await expect
      .poll(() => watcher.page.locator('.topbar-title').textContent())
      .toContain('Linked elsewhere');
    expect(linkedPage.problems).toEqual([]);
    expect(watcher.problems).toEqual([]);
    await linkedPage.context.close();
    await watcher.context.close();
  });

  it('a link to the conversation the host is in shows nothing to choose', async () => {
    const current = (await getState(h)).conversationId;
    const { page, problems, context } = await openByLink(`${h.url}/?conversation=${current}`, 'Third phone');
    await page.locator('.badge[data-status="live"]').waitFor();
    await page.waitForTimeout(300);
    expect(await page.locator('.linked-conversation').count()).toBe(0);
    expect(page.url()).toBe(`${h.url}/`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
