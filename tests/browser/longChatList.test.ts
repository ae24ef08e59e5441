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

describe('a long conversation drawn in chunks and stand-ins, in Chromium', () => {
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

  it('is one list of every message to assistive technology, draws messages in full as they come near', async () => {
    // axe is injected as a script: this context alone bypasses the page's policy.
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, bypassCSP: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${h.url}/#code=${TEST_CODE}`);
    await page.locator('.message-list[aria-busy="false"]').waitFor({ timeout: 20_000 });
    await page.evaluate(FRAMES);
    // Chunks well above the end are boxes; most messages far from the screen are stand-ins.
    expect(await page.locator('.message-chunk').count()).toBeGreaterThan(0);
    expect(await page.locator('.message-stand-in').count()).toBeGreaterThan(MESSAGES / 2);
    expect(await page.locator('.message').count()).toBe(MESSAGES);

    // The boxes are not list items: every message is an item of the list of messages.
    const tree = await page.locator('.message-list').ariaSnapshot();
    expect(tree.split('\n').filter((line) => /^ {2}- listitem/.test(line))).toHaveLength(MESSAGES);
    await page.addScriptTag({ content: AXE });
    const serious = (await page.evaluate(
      "axe.run(document.querySelector('.message-list'), { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ' ' + v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary).join(' | ')))",
    )) as string[];
    expect(serious).toEqual([]);

    // Scrolled to the top: the first messages are drawn in full (markdown, actions).
    await page.evaluate("document.querySelector('.messages').scrollTop = 0");
    await page.evaluate(FRAMES);
    const first = page.locator('.message').first();
    await expect.poll(() => first.getAttribute('class')).not.toContain('message-stand-in');
    await page.locator('.message-assistant').first().locator('.body.markdown').waitFor();
    await shot(page, 'phone-long-list-top');
    expect(problems).toEqual([]);
    await context.close();
  });
});
