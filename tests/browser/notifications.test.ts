import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, shot } from './browserHarness';

interface Shown {
  readonly title: string;
  readonly body: string;
}

/**
 * Before the page loads: records every `new Notification(...)` (the real one is still shown).
 * A page-side script: the tests' compiler has no DOM library.
 */
const SPY = `(() => {
  window.__notifications = [];
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      window.__notifications.push({ title, body: (options && options.body) || '' });
      super(title, options);
    }
  };
})()`;

/** Makes the page believe it is hidden (another tab in front), as a browser would say. */
const HIDE = `(() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  document.dispatchEvent(new Event('visibilitychange'));
})()`;

const shown = (page: Page) => page.evaluate('window.__notifications') as Promise<Shown[]>;

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

describe('notifications in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 20 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('after the opt-in: none while the page is visible; one when a reply finishes or an approval waits while it is hidden', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    try {
      await context.grantPermissions(['notifications'], { origin: h.url });
      await page.addInitScript(SPY);
      await page.reload();
      await page.locator('.badge[data-status="live"]').waitFor();

      // Nothing before the person opts in, even hidden.
      await page.evaluate(HIDE);
      await send(page, 'before the opt-in');
      await page.locator('.message-assistant.status-complete').last().waitFor({ timeout: 10_000 });
      await page.waitForTimeout(300);
      expect(await shown(page)).toEqual([]);
      // Visible again (a fresh load).
      await page.reload();
      await page.locator('.badge[data-status="live"]').waitFor();

      const optIn = page.getByRole('checkbox', { name: /Notify me/ });
      await optIn.click();
      await expect.poll(() => optIn.isChecked()).toBe(true);
      await shot(page, 'desktop-notifications-opt-in');

      // Visible: the page itself shows the reply; no notification.
      await send(page, 'while the page is visible');
      await page.getByText('while the page is visible').nth(1).waitFor({ timeout: 10_000 });
      await page.waitForFunction(
        "document.querySelectorAll('.message-assistant.status-complete').length >= 2",
      );
      await page.waitForTimeout(300);
      expect(await shown(page)).toEqual([]);

      // Hidden: a notification when the reply finishes, with the start of the reply.
      await page.evaluate(HIDE);
      await send(page, 'while the page is hidden');
      await expect.poll(() => shown(page), { timeout: 10_000 }).toHaveLength(1);
      const [reply] = await shown(page);
      expect(reply?.title).toBe('Reply finished');
      expect(reply?.body).toContain('while the page is hidden');

      // Hidden: an approval that starts waiting.
      await send(page, '/tool write_file {"path":"n.txt","content":"x"}');
      await expect.poll(async () => (await shown(page)).length, { timeout: 10_000 }).toBe(2);
      const approval = (await shown(page))[1];
      expect(approval?.title).toBe('Approval waiting');
      // What waits, once, in plain words: not "write_file wants to: Write 1 bytes to n.txt".
      expect(approval?.body).toBe('Write n.txt?');
      await page.locator('.message-assistant .approval').getByRole('button', { name: 'Deny' }).click();
      await page.locator('.message-assistant .approval').waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
