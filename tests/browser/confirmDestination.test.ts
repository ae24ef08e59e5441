import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostDb, openHostDb } from '../sdk/hostDb';
import { act, waitFor } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, shot } from './browserHarness';

/** What a confirmation dialog said when the person clicked its send button. */
interface Named {
  readonly where: string;
  readonly button: string;
}

/**
 * Records, in the page, what the confirmation dialog names at the very moment of each click on
 * its send button (a capturing listener runs before the page's own handler), so the test knows
 * what the person was shown, not what the page shows a moment later.
 */
async function recordConfirmClicks(page: Page): Promise<() => Promise<Named[]>> {
  await page.evaluate(`(() => {
    const named = [];
    window.__named = named;
    document.addEventListener('click', (event) => {
      const button = event.target instanceof Element && event.target.closest('button');
      const dialog = button && button.closest('[role="alertdialog"]');
      if (!dialog || !button.classList.contains('primary')) return;
      const where = (dialog.querySelector('p strong')?.textContent ?? '').replace(/^“|”$/g, '');
      named.push({ where, button: button.textContent });
    }, true);
  })()`);
  return () => page.evaluate('window.__named') as Promise<Named[]>;
}

describe('a confirmed send goes only where the confirmation named, in Chromium', () => {
  let browser: Browser;
  let h: TestHost;
  let db: HostDb;
  /** Conversation id by title. */
  const ids = new Map<string, string>();

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 5 })]);
    for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta']) {
      ids.set(title, (await act(h, { action: 'newConversation', title })).conversationId as string);
    }
    db = openHostDb(h.dataDir);
  });
  afterAll(async () => {
    db?.close();
    await browser?.close();
    await h?.close(true);
  });

  /** Makes the conversation with this title current on the host, as its own user would. */
  const hostSelects = (title: string) =>
    act(h, { action: 'selectConversation', conversationId: ids.get(title) ?? '' });
  const titleOf = (id: string) => [...ids].find(([, value]) => value === id)?.[0];
  /** Where a message with exactly this text has landed (titles; empty while nowhere). */
  const landed = (text: string) => db.conversationsWithUserText(text).map((id) => titleOf(id) ?? id);

  it('the host moves during the send and again while the dialog is open: the click sends where the dialog says', async () => {
    await hostSelects('Alpha');
    const { page, problems, context } = await openConnected(browser, h);
    const heading = (title: string) => page.getByRole('heading', { name: title }).waitFor();
    await heading('Alpha');
    const named = await recordConfirmClicks(page);

    // Each listed move happens on the host while the next send is on its way, just before it
    // arrives: the real host then answers 409.
    const movesDuringSend: string[] = [];
    await page.route('**/api/action', async (route) => {
      const move = route.request().postDataJSON()?.action === 'send' ? movesDuringSend.shift() : undefined;
      if (move !== undefined) await hostSelects(move);
      await route.continue();
    });
    const box = page.getByRole('textbox', { name: 'Message' });
    const dialog = page.getByRole('alertdialog');
    const confirm = dialog.getByRole('button', { name: /^Send to/ });

    // 1. Sent from Alpha; the host moves to Bravo meanwhile: nothing sent, Bravo is named.
    const first = 'first: which conversation gets this?';
    movesDuringSend.push('Bravo');
    await box.fill(first);
    await box.press('Enter');
    await dialog.waitFor();
    await heading('Bravo');
    expect(await dialog.textContent()).toContain('“Bravo”');
    expect(landed(first)).toEqual([]);

    // 2. The host moves on to Charlie while the dialog is open, and the page shows Charlie.
    await hostSelects('Charlie');
    await heading('Charlie');
    await confirm.click();
    const firstLanded = await waitFor(() => (landed(first).length > 0 ? landed(first) : undefined));
    const [firstClick] = await named();
    expect(firstClick?.button).toBe(`Send to “${firstClick?.where}”`);
    expect(firstLanded).toEqual([firstClick?.where]);
    expect(firstLanded).toEqual(['Charlie']);
    await expect.poll(() => dialog.count()).toBe(0);

    // 3. A second message from Charlie; the host moves to Delta during the send, then to
    //    Bravo during the confirmed send: that confirmation named Delta, so it is refused
    //    and a new one names Bravo.
    const second = 'second: and this one?';
    movesDuringSend.push('Delta', 'Bravo');
    await page.locator('.message-user .body', { hasText: first }).waitFor();
    await box.fill(second);
    await box.press('Enter');
    await dialog.waitFor();
    await heading('Delta');
    expect(await dialog.textContent()).toContain('“Delta”');
    await confirm.click();
    await heading('Bravo');
    await expect.poll(() => dialog.textContent()).toContain('“Bravo”');
    expect(landed(second)).toEqual([]);
    await shot(page, 'desktop-409-confirm-moved-again');
    await confirm.click();
    const secondLanded = await waitFor(() => (landed(second).length > 0 ? landed(second) : undefined));
    const clicks = await named();
    expect(clicks.map((click) => click.where)).toEqual(['Charlie', 'Delta', 'Bravo']);
    expect(secondLanded).toEqual(['Bravo']);
    expect(landed(first)).toEqual(['Charlie']);
    await page.locator('.message-user .body', { hasText: second }).waitFor();
    expect(await box.inputValue()).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });
});
