import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningHost, startHost } from '@webbridge/host';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CODE } from '../support/testHost';
import { assertWebBuilt, DESKTOP, launchBrowser, openPage, PHONE, shot } from './browserHarness';

/** A reference host speaking `language`, on a free loopback port. */
async function hostIn(language: string): Promise<{ url: string; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `webbridge-lang-${language}-`));
  const host: RunningHost = await startHost({
    dataDir,
    port: 0,
    hostname: '127.0.0.1',
    accessCode: TEST_CODE,
    echoDelayMs: 2,
    logLevel: 'silent',
    language,
  });
  return {
    url: `${host.address.scheme}://127.0.0.1:${host.address.port}`,
    close: async () => {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Connects through the connection page, as a person typing the code would. */
async function connect(page: Page, codeLabel: string, connectLabel: string): Promise<void> {
  await page.getByLabel(codeLabel).fill(TEST_CODE);
  await page.getByRole('button', { name: connectLabel }).click();
  await page.locator('.badge[data-status="live"]').waitFor();
}

/** Sends a message and waits for the echo model's whole reply. */
async function say(page: Page, box: string, text: string): Promise<void> {
  const before = await page.locator('.message-assistant.status-complete').count();
  await page.getByRole('textbox', { name: box }).fill(text);
  await page.getByRole('textbox', { name: box }).press('Enter');
  await expect.poll(() => page.locator('.message-assistant.status-complete').count()).toBe(before + 1);
}

const SAMPLE =
  'A table, a list and some code:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two\n\n```js\nconst x = 1;\n```';

describe('languages in Chromium', () => {
  let browser: Browser;
  const hosts: { close: () => Promise<void> }[] = [];
  const start = async (language: string) => {
    const h = await hostIn(language);
    hosts.push(h);
    return h;
  };

  beforeAll(async () => {
    assertWebBuilt();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(hosts.map((h) => h.close()));
  });

  it('a host started in German shows the connection page and the chat in German, sizes and dates the German way', async () => {
    const h = await start('de');
    const locale = (await (await fetch(`${h.url}/api/locale`)).json()) as {
      language: string;
      strings: Record<string, string>;
    };
    expect(locale.language).toBe('de');
    expect(locale.strings.connect).toBe('Verbinden');

    const { page, problems, context } = await openPage(browser, h.url);
    try {
      await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('de');
      await page.getByText('Gib den Zugangscode ein, den der Host anzeigt.').waitFor();
      await expect.poll(() => page.evaluate('document.dir')).toBe('ltr');
      await connect(page, 'Zugangscode', 'Verbinden');

      await page.getByRole('button', { name: '+ Neuer Chat' }).waitFor();
      await expect.poll(() => page.locator('.badge[data-status="live"]').textContent()).toBe('Live');
      await say(page, 'Nachricht', 'Hallo Welt');
      await page.locator('.message-user .role', { hasText: 'Du' }).waitFor();
      await page.locator('.message-assistant .role', { hasText: 'Assistent' }).waitFor();
      expect(await page.getByRole('button', { name: 'Senden' }).count()).toBe(1);
      await page.getByRole('heading', { name: 'Unterhaltungen' }).waitFor();

      // Numbers: a 1.5 KiB file is "1,5 kB" in German.
      await page
        .locator('input[type=file]')
        .setInputFiles([{ name: 'notiz.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1536, 97) }]);
      await expect
        .poll(() => page.locator('.pending .chip-size').textContent(), { timeout: 10_000 })
        .toBe('1,5 kB');
      // Dates: when the conversation began, day.month.year, 24-hour clock.
      const began = await page.locator('.conversation.current .conversation-open').getAttribute('title');
      expect(began).toMatch(/^Begonnen am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
      await shot(page, 'desktop-de-chat');

      // A person may choose another language; the choice is kept in this browser.
      await page.locator('.settings summary').click();
      await shot(page, 'desktop-de-settings');
      await page.getByLabel('Sprache').selectOption('en');
      await page.getByRole('button', { name: '+ New chat' }).waitFor();
      // Messages already on screen (rendered once, kept by identity) change language too.
      await page.locator('.message-user .role', { hasText: 'You' }).waitFor();
      await expect.poll(() => page.evaluate('document.documentElement.lang')).toBe('en');
      await page.reload();
      await page
        .getByRole('button', { name: 'Connect' })
        .or(page.getByRole('button', { name: '+ New chat' }))
        .first()
        .waitFor();
      expect(await page.evaluate("localStorage.getItem('webbridge.language')")).toBe('en');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Arabic lays out right to left: dir="rtl", the sidebar on the right, numbers in Arabic', async () => {
    const h = await start('ar');
    for (const [screen, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { page, problems, context } = await openPage(browser, h.url, viewport);
      try {
        await expect.poll(() => page.evaluate('document.dir')).toBe('rtl');
        expect(await page.evaluate('document.documentElement.lang')).toBe('ar');
        await page.getByText('أدخل رمز الوصول الظاهر على المضيف.').waitFor();
        await shot(page, `${screen}-ar-connect`);
        await connect(page, 'رمز الوصول', 'اتصال');
        await say(page, 'رسالة', SAMPLE);
        await page.locator('.message-user .role', { hasText: 'أنت' }).first().waitFor();

        if (screen === 'desktop') {
          const sidebar = await page.locator('.sidebar').boundingBox();
          const chat = await page.locator('main.chat').boundingBox();
          expect(sidebar && chat && sidebar.x > chat.x).toBe(true);
          expect(sidebar && sidebar.x + sidebar.width).toBeCloseTo(viewport.width, 0);
          // A size as Arabic writes it, the way the browser's Intl says for 'ar'.
          await page
            .locator('input[type=file]')
            .setInputFiles([{ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1536, 97) }]);
          const expected = await page.evaluate(() =>
            new Intl.NumberFormat('ar', {
              style: 'unit',
              unit: 'kilobyte',
              unitDisplay: 'short',
              maximumFractionDigits: 1,
            }).format(1.5),
          );
          await expect
            .poll(() => page.locator('.pending .chip-size').textContent(), { timeout: 10_000 })
            .toBe(expected);
          expect(expected).not.toBe('1.5 kB');
          await shot(page, 'desktop-ar-chat');
        } else {
          await shot(page, 'phone-ar-chat');
          // The drawer comes in from the right edge.
          await page.getByRole('button', { name: 'فتح القائمة' }).click();
          await expect
            .poll(async () => {
              const box = await page.locator('.sidebar').boundingBox();
              return box ? Math.round(box.x + box.width) : -1;
            })
            .toBe(viewport.width);
          await shot(page, 'phone-ar-drawer');
        }
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('Arabic in the dark theme on a phone (a screenshot to look at)', async () => {
    const h = await start('ar');
    const { page, problems, context } = await openPage(browser, h.url, PHONE, 'dark');
    try {
      await expect.poll(() => page.evaluate('document.dir')).toBe('rtl');
      await connect(page, 'رمز الوصول', 'اتصال');
      await say(page, 'رسالة', 'مرحبًا! هذه رسالة بالعربية مع `code` و**نص عريض**.');
      await shot(page, 'phone-ar-dark-chat');
      // Find in the conversation: its count in Arabic digits, its field at the right.
      await page.getByRole('button', { name: 'البحث في هذه المحادثة' }).click();
      await page.locator('.find-field').fill('رسالة');
      const count = await page.evaluate(() => {
        const n = new Intl.NumberFormat('ar');
        return `${n.format(2)} من ${n.format(2)}`;
      });
      await expect.poll(() => page.locator('.find-count').textContent()).toBe(count);
      const field = await page.locator('.find-field').boundingBox();
      const close = await page.getByRole('button', { name: 'إغلاق البحث' }).boundingBox();
      expect(field && close && field.x > close.x).toBe(true);
      await shot(page, 'phone-ar-dark-find');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('English screenshots on phone and desktop, for comparison', async () => {
    const h = await start('en');
    for (const [screen, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { page, problems, context } = await openPage(browser, h.url, viewport);
      try {
        await expect.poll(() => page.evaluate('document.dir')).toBe('ltr');
        await connect(page, 'Access code', 'Connect');
        await say(page, 'Message', SAMPLE);
        await shot(page, `${screen}-en-chat`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
