import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getState } from '../support/api';
import { startTestHost, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE, shot } from './browserHarness';
import { makeNoisePng } from './makePng';

describe('attaching on a phone, in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 1 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });
  // Each test in a conversation of its own: nothing pending from the one before.
  beforeEach(async () => {
    await h.host.controller.executor.run(() =>
      h.host.controller.conversations.newConversation(undefined, 'Attach'),
    );
  });

  it('offers "photo or camera" (images only) beside "file", and shows a thumbnail of a picture', async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE);
    const [photo] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Attach a photo or take one' }).click(),
    ]);
    expect(await photo.element().getAttribute('accept')).toBe('image/*');
    await photo.setFiles([{ name: 'noise.png', mimeType: 'image/png', buffer: makeNoisePng(300, 200) }]);
    const chip = page.locator('.pending .chip', { hasText: 'noise.png' });
    await chip.locator('img.chip-thumb').waitFor();
    // The picture drawn (the host's copy once listed), not a broken image.
    await expect
      .poll(() =>
        page.evaluate(
          "(() => { const img = document.querySelector('.pending .chip-thumb'); return img.complete ? img.naturalWidth : 0; })()",
        ),
      )
      .toBe(300);
    await shot(page, 'phone-pending-thumbnail');

    const [file] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.locator('button.attach').click(),
    ]);
    expect(await file.element().getAttribute('accept')).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lets the chip of each finished upload go once its message is sent, however quick the send', async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE);
    const box = page.getByRole('textbox', { name: 'Message' });
    const send = page.getByRole('button', { name: 'Send', exact: true });
    for (let i = 0; i < 6; i++) {
      // The list holds only the messages near the screen: wait for this one by its text.
      const sentText = `picture ${i}`;
      await page
        .locator('input[type=file]')
        .setInputFiles([{ name: `shot-${i}.png`, mimeType: 'image/png', buffer: makeNoisePng(64, 64) }]);
      await box.fill(sentText);
      // Sent the moment the page allows it.
      await send.click();
      await page.locator('.message-user', { hasText: sentText }).waitFor();
      await expect.poll(() => page.locator('.pending .chip').count(), { timeout: 5_000 }).toBe(0);
    }
    const sent = (await getState(h)).conversations.messages.filter((m) => m.role === 'user');
    // Every picture went with its own message.
    expect(sent.map((m) => m.attachments.map((a) => a.name))).toEqual(
      Array.from({ length: 6 }, (_, i) => [`shot-${i}.png`]),
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});
