import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost } from '@webbridge/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE } from '../../../web/src/markdown/samples';
import { act, getState, sendAndWait } from '../../support/api';
import { startTestHost, TEST_CODE, type TestHost } from '../../support/testHost';
import { assertWebBuilt, restartHost } from '../browserHarness';
import type { EngineBrowser } from './EnginePage';
import { LIVE, MESSAGE_BOX, openConnected, PHONE, say, shot, waitUntil } from './engineSteps';
import { engine, launchEngine } from './launchEngine';

const VIEW_CODE = 'view-code-5j2p-8x4c';

/** A reference host whose page speaks `language`; removes its data when closed. */
async function hostIn(language: string): Promise<{ url: string; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), `webbridge-lang-${language}-`));
  const host = await startHost({
    dataDir,
    port: 0,
    hostname: '127.0.0.1',
    accessCode: TEST_CODE,
    echoDelayMs: 2,
    logLevel: 'silent',
    language,
  });
  return {
    url: `http://127.0.0.1:${host.address.port}`,
    close: async () => {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe(`connecting in ${engine}`, () => {
  let browser: EngineBrowser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([
      launchEngine(),
      startTestHost({ echoDelayMs: 10, viewCode: VIEW_CODE }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('connects by typing the code, after saying a wrong one is wrong', async () => {
    const page = await browser.openPage(h.url, PHONE);
    try {
      const field = '#access-code';
      await page.waitFor(field);
      await shot(page, 'connect');
      await page.fill(field, 'not-the-code');
      await page.click({ css: 'button', hasText: 'Connect' });
      await page.waitFor({ css: '[role="alert"]', hasText: 'That code is not right' });
      expect(await page.evaluate('document.querySelector("#access-code").getAttribute("aria-invalid")')).toBe(
        'true',
      );
      await shot(page, 'connect-wrong-code');
      await page.fill(field, TEST_CODE);
      await page.click({ css: 'button', hasText: 'Connect' });
      await page.waitFor(LIVE, { timeout: 15_000 });
      expect(await page.count(field)).toBe(0);
      expect(await page.problems()).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('connects by link (#code=), takes the code out of the address and pairs, keeping the code nowhere', async () => {
    const page = await openConnected(browser, h);
    try {
      expect(new URL(await page.url()).hash).toBe('');
      const kept = await page.evaluate<string>('JSON.stringify({ ...localStorage, ...sessionStorage })');
      expect(kept).not.toContain(TEST_CODE);
      expect(kept).toContain('webbridge.device');
      await page.reload();
      await page.waitFor(LIVE, { timeout: 15_000 });
      await page.waitFor(MESSAGE_BOX);
      await shot(page, 'chat-empty');
      expect(await page.problems()).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('watches with the view code: no composer, a watching badge, the host followed live', async () => {
    const page = await openConnected(browser, h, VIEW_CODE);
    try {
      await sendAndWait(h, 'sent by the host while someone watches');
      await page.waitFor({ css: '.message-user .body', hasText: 'sent by the host while someone watches' });
      await page.waitFor({ css: '.message-assistant.status-complete', hasText: 'someone watches' });
      expect(await page.count(MESSAGE_BOX)).toBe(0);
      await page.waitFor('.badge-watching');
      await shot(page, 'watching');
      expect(await page.problems()).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows the host going away, reconnects by itself when it is back and chats again', async () => {
    const page = await openConnected(browser, h);
    try {
      await say(page, 'before the restart');
      const firstInstance = (await getState(h)).instanceId;
      await h.close();
      await waitUntil('the badge to leave live', async () =>
        /reconnecting|offline/.test(
          (await page.evaluate<string | null>('document.querySelector(".badge")?.dataset.status ?? null')) ??
            '',
        ),
      );
      await shot(page, 'reconnecting');
      h = await restartHost(h, { echoDelayMs: 10, viewCode: VIEW_CODE });
      await page.waitFor(LIVE, { timeout: 20_000 });
      expect((await getState(h)).instanceId).not.toBe(firstInstance);
      await page.waitFor({ css: '.message-user .body', hasText: 'before the restart' });
      await say(page, 'after the restart');
      await page.waitFor({ css: '.message-assistant .body', hasText: 'after the restart' });
      expect(await page.problems()).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('speaks Arabic right to left: dir="rtl", the page in Arabic, the drawer from the right edge', async () => {
    const arabic = await hostIn('ar');
    const page = await browser.openPage(arabic.url, PHONE);
    try {
      await waitUntil('dir="rtl"', async () => (await page.evaluate('document.dir')) === 'rtl');
      expect(await page.evaluate('document.documentElement.lang')).toBe('ar');
      await page.waitFor({ css: 'p', hasText: 'أدخل رمز الوصول الظاهر على المضيف.' });
      await shot(page, 'rtl-connect');
      await page.fill('#access-code', TEST_CODE);
      await page.click({ css: 'button', hasText: 'اتصال' });
      await page.waitFor(LIVE, { timeout: 15_000 });
      await say(page, SAMPLE, 'textarea[aria-label="رسالة"]');
      await page.waitFor({ css: '.message-user .role', hasText: 'أنت' });
      // Right to left: the user's own message sits at the left edge, the reply's table too.
      const [userLeft, userRight] = await page.evaluate<[number, number]>(
        '(() => { const r = document.querySelector(".message-user").getBoundingClientRect(); return [r.left, r.right]; })()',
      );
      expect(userLeft).toBeLessThan(390 - userRight);
      // An English reply reads left to right within the Arabic page (its body is dir="auto"):
      // the list item "first" starts at the left edge of its paragraph. Firefox and WebKit once put it at
      // the right edge: their `li { text-align: match-parent }` turned the list's right-to-left
      // start into an absolute "right" that the reply inherited.
      const [itemLeft, textLeft] = await page.evaluate<[number, number]>(`(() => {
        const item = [...document.querySelectorAll('.message-assistant .body ol > li')].find((li) => li.textContent.trim() === 'first');
        const text = document.createTreeWalker(item, NodeFilter.SHOW_TEXT).nextNode();
        const range = document.createRange();
        range.selectNodeContents(text);
        return [text.parentElement.getBoundingClientRect().left, range.getBoundingClientRect().left];
      })()`);
      expect(textLeft - itemLeft).toBeLessThan(5);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await page.waitFor('.message-assistant .math .katex');
      await page.evaluate('document.fonts.ready.then(() => 0)');
      await shot(page, 'rtl-chat');
      await page.click('button[aria-label="فتح القائمة"]');
      await waitUntil('the drawer at the right edge', async () => {
        const right = await page.evaluate<number | null>(
          '(() => { const r = document.querySelector(".sidebar")?.getBoundingClientRect(); return r && r.width > 0 ? Math.round(r.right) : null; })()',
        );
        return right === 390;
      });
      await shot(page, 'rtl-drawer');
      expect(await page.problems()).toEqual([]);
    } finally {
      await page.close();
      await arabic.close();
    }
  }, 40_000);

  it('keeps the app shell in a service worker and shows the offline page while the host is away', async () => {
    const page = await openConnected(browser, h);
    try {
      expect(
        await page.evaluate(
          'navigator.serviceWorker.ready.then((r) => new URL(r.active.scriptURL).pathname)',
        ),
      ).toBe('/sw.js');
      await waitUntil('the page to be controlled', () =>
        page.evaluate('navigator.serviceWorker.controller !== null'),
      );
      await h.close();
      await page.reload();
      await page.waitFor({ css: 'h1', hasText: 'The host is unreachable' });
      await shot(page, 'offline');
      h = await restartHost(h, { echoDelayMs: 10, viewCode: VIEW_CODE });
      // The offline page retries by itself (2 s, then 4 s) and reloads into the app.
      await page.waitFor(LIVE, { timeout: 20_000 });
    } finally {
      await page.close();
    }
  }, 40_000);

  it('the drawer, the shortcuts help and the dark theme (screenshots to compare across engines)', async () => {
    const page = await openConnected(browser, h);
    try {
      await say(page, 'A short question, to have something on screen.');
      await page.click('button[aria-label="Open menu"]');
      await waitUntil('the drawer at the left edge', async () => {
        const left = await page.evaluate<number | null>(
          '(() => { const r = document.querySelector(".sidebar")?.getBoundingClientRect(); return r && r.width > 0 ? Math.round(r.left) : null; })()',
        );
        return left === 0;
      });
      await shot(page, 'drawer');
      await page.click('button[aria-label="Close menu"]');
      // The "?" button shows where a keyboard is in use (render/keyboardInUse.ts): headless
      // Firefox reports no fine pointer that hovers, so a key only a keyboard makes says so.
      await page.press(MESSAGE_BOX, 'Escape');
      await page.click('button.shortcuts-button');
      await page.waitFor('[aria-labelledby="shortcuts-heading"]');
      await shot(page, 'shortcuts');
      await page.press(MESSAGE_BOX, 'Escape');
      await act(h, { action: 'updateSettings', settings: { theme: 'dark' } });
      await waitUntil('the dark theme', async () => {
        return (await page.evaluate('getComputedStyle(document.body).backgroundColor')) === 'rgb(21, 23, 28)';
      });
      await shot(page, 'chat-dark');
      expect(await page.problems()).toEqual([]);
    } finally {
      await act(h, { action: 'updateSettings', settings: { theme: 'system' } });
      await page.close();
    }
  });
});
