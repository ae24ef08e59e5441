import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE } from './browserHarness';

// Regression (issue 19): after Disconnect the connection form still held the access code in a
// plain text field (the page handed the last code back to the new form), and the page kept the
// code in sessionStorage while connected.
describe('Disconnect', () => {
  let browser: Browser;
  let h: TestHost;
  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost()]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('leaves no code in the form, the storage or the page', async () => {
    const { page, context } = await openConnected(browser, h, PHONE);
    const stored = () => page.evaluate('JSON.stringify({ ...localStorage, ...sessionStorage })');
    const whileConnected = await stored();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    const field = page.getByLabel('Access code');
    await field.waitFor();
    expect(await field.inputValue()).toBe('');
    expect(whileConnected).not.toContain(TEST_CODE);
    expect(await stored()).not.toContain('webbridge.device');
    expect(await stored()).not.toContain(TEST_CODE);
    expect(await page.content()).not.toContain(TEST_CODE);
    await context.close();
  });
});
