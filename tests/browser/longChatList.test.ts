import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, PHONE, shot } from './browserHarness';
import { seedConversation, startScriptedHost } from './scriptedModel';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EXCHANGES = 150;
const MESSAGES = EXCHANGES * 2;

/** Waits two frames and a little, so that observers and layout have settled. */
const FRAMES =
  'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100))))';

describe('a long conversation windowed, in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startScriptedHost()]);
    await seedConversation(h.host, EXCHANGES);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('is one list to assistive technology whose items say their place in the whole, drawn in full near the screen', async () => {
    // axe is injected as a script: this context alone bypasses the page's policy.
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, bypassCSP: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${h.url}/#code=${TEST_CODE}`);
    await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout: 20_000 });
    await page.evaluate(FRAMES);
    // Only the messages near the screen are in the page, each drawn in full.
    const drawn = await page.locator('.message').count();
    expect(drawn).toBeLessThan(40);
    expect(await page.locator('.message-assistant .body.markdown').count()).toBeGreaterThan(0);

    // Every drawn message is an item of the one list, and says where it is among all of them.
    const tree = await page.locator('.message-list').ariaSnapshot();
    expect(tree.split('\n').filter((line) => /^ {2}- listitem/.test(line))).toHaveLength(drawn);
    const places = (await page.evaluate(
      "[...document.querySelectorAll('.message')].map((m) => [Number(m.getAttribute('aria-posinset')), Number(m.getAttribute('aria-setsize'))])",
    )) as [number, number][];
    expect(places.map(([, size]) => size)).toEqual(places.map(() => MESSAGES));
    expect(places.map(([at]) => at)).toEqual(places.map((_, i) => MESSAGES - drawn + 1 + i));
    await page.addScriptTag({ content: AXE });
    const serious = (await page.evaluate(
      "axe.run(document.querySelector('.message-list'), { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ' ' + v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary).join(' | ')))",
    )) as string[];
    expect(serious).toEqual([]);

    // Scrolled to the top: the first messages are drawn in full (markdown, actions).
    await expect
      .poll(async () => {
        await page.evaluate("document.querySelector('.messages').scrollTop = 0");
        await page.evaluate(FRAMES);
        return page.locator('.message').first().getAttribute('aria-posinset');
      })
      .toBe('1');
    await page.locator('.message-assistant').first().locator('.body.markdown').waitFor();
    await shot(page, 'phone-long-list-top');
    expect(problems).toEqual([]);
    await context.close();
  });
});
