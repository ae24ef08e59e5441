import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState } from '../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import {
  assertWebBuilt,
  launchBrowser,
  openConnected,
  openPage,
  PHONE,
  restartHost,
  shot,
} from './browserHarness';

describe('connecting in Chromium against the reference host', () => {
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

  it('says when the code is wrong', async () => {
    const { page, problems, context } = await openPage(browser, h.url, PHONE);
    const field = page.getByLabel('Access code');
    await field.waitFor();
    // The page's own strings come from /api/locale.
    expect(await page.getByRole('button', { name: 'Connect' }).count()).toBe(1);
    await shot(page, 'phone-connect');
    await field.fill('not-the-code');
    await page.getByRole('button', { name: 'Connect' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('That code is not right');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'phone-connect-wrong-code');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says when there were too many tries, with the wait, and refuses to try meanwhile', async () => {
    // A host of its own: its lockout must not slow the other tests down.
    // A long lockout, so a loaded machine cannot outwait it before the page is checked.
    const strict = await startTestHost({ freeAuthFailures: 1, authLockoutMs: 60_000 });
    const { page, problems, context } = await openPage(browser, strict.url, PHONE);
    const field = page.getByLabel('Access code');
    await field.fill('not-the-code');
    const alert = page.getByRole('alert');
    const said = async () => ((await alert.count()) > 0 ? ((await alert.textContent()) ?? '') : '');
    const connect = page.getByRole('button', { name: 'Connect' });
    for (let i = 0; i < 4; i++) {
      // Wait for the previous answer: either the lockout message or a button ready again.
      await expect
        .poll(async () => (await said()).includes('Too many') || (await connect.isEnabled()), {
          timeout: 10_000,
        })
        .toBe(true);
      if ((await said()).includes('Too many')) break;
      await connect.click();
      await expect.poll(() => connect.count()).toBe(1);
    }
    await expect.poll(said).toMatch(/Too many attempts.*\(\d+ s\)/);
    expect(await page.getByRole('button', { name: 'Connect' }).isDisabled()).toBe(true);
    await shot(page, 'phone-connect-rate-limited');
    expect(problems).toEqual([]);
    await context.close();
    await strict.close(true);
  });

  it('takes the code from #code=, removes it from the address bar and pairs, keeping the code nowhere', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    expect(new URL(page.url()).hash).toBe('');
    const kept = () => page.evaluate('JSON.stringify({ ...localStorage, ...sessionStorage })');
    expect(await kept()).not.toContain(TEST_CODE);
    expect(await kept()).toContain('webbridge.device');
    await page.reload();
    await page.locator('.badge[data-status="live"]').waitFor();
    expect(await page.getByLabel('Access code').count()).toBe(0);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByLabel('Access code').waitFor();
    expect(await kept()).not.toContain('webbridge.device');
    expect(await page.getByLabel('Access code').inputValue()).toBe('');
    await shot(page, 'desktop-connect');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the connection going away when the host stops and recovers when it is back', async () => {
    const { page, problems, context } = await openConnected(browser, h);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('before the restart');
    await box.press('Enter');
    await page.locator('.message-assistant .body', { hasText: 'before the restart' }).waitFor();
    const firstInstance = (await getState(h)).instanceId;

    await h.close();
    const badge = page.locator('.badge');
    await expect.poll(() => badge.getAttribute('data-status')).toMatch(/reconnecting|offline/);
    await shot(page, 'desktop-reconnecting');
    h = await restartHost(h);
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: 15_000 }).toBe('live');
    expect((await getState(h)).instanceId).not.toBe(firstInstance);
    await page.locator('.message-user .body', { hasText: 'before the restart' }).waitFor();

    await box.fill('after the restart');
    await box.press('Enter');
    await page.locator('.message-assistant .body', { hasText: 'after the restart' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
