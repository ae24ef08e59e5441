import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE, shot } from './browserHarness';
import { seedConversation, startScriptedHost } from './scriptedModel';

/** The smallest target a finger hits reliably (Apple's 44 pt, WCAG 2.5.5's 44 CSS px). */
const MIN = 44;

/**
 * Every visible, enabled control on the page smaller than {@link MIN} in either direction,
 * named so the failure says which. Links inside running text are exempt (WCAG 2.5.8's inline
 * exception: a sentence cannot be 44 px tall), and a check box is measured by its label; so are controls hidden on purpose (the file
 * inputs behind their buttons) and controls under an open panel. Page-side JavaScript as text: the tests' compiler has no DOM.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const small = [];
    const controls = document.querySelectorAll('button, a[href], input, select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])');
    for (const el of controls) {
      if (el.disabled || el.closest('[inert], [hidden]')) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      // A box in a label is hit through its label: the label is the target.
      const target = el.matches('input[type="checkbox"], input[type="radio"]') && el.closest('label') || el;
      const box = target.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.bottom < 0 || box.top > innerHeight || box.right < 0 || box.left > innerWidth) continue;
      if (el.matches('a') && getComputedStyle(el).display === 'inline' && el.closest('p, li, td, th')) continue;
      if (el.matches('.visually-hidden')) continue;
      // Under an open panel (the menu over the chat), out of a finger's reach.
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (top && top !== el && !el.contains(top) && !top.closest('label')?.contains(el)) continue;
      if (box.width + 0.5 < ${MIN} || box.height + 0.5 < ${MIN}) {
        const name = el.getAttribute('aria-label') || target.textContent.trim().slice(0, 30) || el.getAttribute('placeholder') || '';
        small.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).trim().split(/\\s+/).join('.') : '') + ' "' + name + '" ' + Math.round(box.width) + 'x' + Math.round(box.height));
      }
    }
    return small;
  })()`)) as string[];
}

describe('touch targets on a phone, in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startScriptedHost()]);
    // Replies with lists, code (a copy button) and links.
    await seedConversation(h.host, 6);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('has no control under 44x44 px on the chat screen or in the open menu at 390x844', async () => {
    const { page, problems, context } = await openConnected(browser, h, PHONE);
    await page.locator('.message-assistant').last().waitFor();
    const found: Record<string, string[]> = {};
    // The end of the conversation (message actions, composer), then higher up (code, copy).
    found.chat = await smallTargets(page);
    await page.evaluate("document.querySelector('.messages').scrollTop = 0");
    found.top = await smallTargets(page);
    await shot(page, 'phone-touch-targets-chat');
    // The find bar's field, count and buttons.
    await page.getByRole('button', { name: 'Find in this conversation' }).click();
    await page.locator('.find-field').fill('the');
    await page.locator('.find-count', { hasText: 'of' }).waitFor();
    found.find = await smallTargets(page);
    await shot(page, 'phone-touch-targets-find');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open menu' }).click();
    // Measured once the drawer has slid in.
    await expect
      .poll(() => page.evaluate("document.querySelector('.sidebar').getBoundingClientRect().left"))
      .toBeGreaterThanOrEqual(0);
    await page.evaluate('new Promise((r) => setTimeout(r, 300))');
    found.menu = await smallTargets(page);
    await shot(page, 'phone-touch-targets-menu');
    // The settings and tools, opened and scrolled into view.
    for (const section of ['Settings', 'Tools']) await page.locator('summary', { hasText: section }).click();
    await page.evaluate("document.querySelector('.sidebar').scrollTop = 1e6");
    found.settings = await smallTargets(page);
    await shot(page, 'phone-touch-targets-settings');
    expect(found).toEqual({ chat: [], top: [], find: [], menu: [], settings: [] });
    expect(problems).toEqual([]);
    await context.close();
  });
});
