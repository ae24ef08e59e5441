import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHost } from '../../support/testHost';
import { assertWebBuilt } from '../browserHarness';
import { LONG_REPLY_PROMPT, seedConversation, startScriptedHost } from '../scriptedModel';
import type { EngineBrowser, EnginePage } from './EnginePage';
import { MESSAGE_BOX, openConnected, shot, waitUntil } from './engineSteps';
import { engine, launchEngine } from './launchEngine';

const EXCHANGES = 300;
const MESSAGES = EXCHANGES * 2;

/** How far the message list is from its end, in CSS pixels. */
const FROM_END =
  "(() => { const el = document.querySelector('.messages'); return el.scrollHeight - el.scrollTop - el.clientHeight; })()";

/** Waits two frames and a little (page-side), so that measuring and scrolling have settled. */
const SETTLE =
  'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => r(0), 50))))';

/** The place in the whole conversation (aria-posinset) of the first or last message in the page. */
const placeOf = (which: 'first' | 'last') =>
  `(() => { const all = document.querySelectorAll('.message'); const m = all[${which === 'first' ? 0 : 'all.length - 1'}]; return m ? Number(m.getAttribute('aria-posinset')) : 0; })()`;

// The list is windowed (only the messages near the screen are in the page) and keeps its place
// by its own measuring, not the browser's scroll anchoring, which WebKit does not have.
describe(`a long conversation in ${engine}`, () => {
  let browser: EngineBrowser;
  let h: TestHost;
  let page: EnginePage | undefined;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchEngine(), startScriptedHost(10)]);
    await seedConversation(h.host, EXCHANGES);
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await h?.close(true);
  });

  it('opens at its end with a window of it, reaches the first message by scrolling, and follows a new reply', async () => {
    page = await openConnected(browser, h);
    await page.waitFor('.message-list[aria-busy="false"]');
    await page.evaluate(SETTLE);
    await waitUntil('the view to be at the end', async () => (await page!.evaluate<number>(FROM_END)) < 2);
    expect(await page.evaluate<number>(placeOf('last'))).toBe(MESSAGES);
    const drawn = await page.count('.message');
    expect(drawn).toBeGreaterThan(3);
    expect(drawn).toBeLessThan(60);
    await shot(page, 'long-conversation-end');

    // Scrolled to the top (guesses above become measured heights on the way): the first message.
    await waitUntil('the first message at the top', async () => {
      await page!.evaluate("(() => { document.querySelector('.messages').scrollTop = 0; return 0; })()");
      await page!.evaluate(SETTLE);
      return (await page!.evaluate<number>(placeOf('first'))) === 1;
    });
    expect(await page.count('.message')).toBeLessThan(60);
    await shot(page, 'long-conversation-top');

    // Back at the end, a reply streams in and the view follows it to its last word.
    await waitUntil('the view back at the end', async () => {
      await page!.evaluate(
        "(() => { const el = document.querySelector('.messages'); el.scrollTop = el.scrollHeight; return 0; })()",
      );
      await page!.evaluate(SETTLE);
      return (await page!.evaluate<number>(FROM_END)) < 2;
    });
    await page.fill(MESSAGE_BOX, LONG_REPLY_PROMPT);
    await page.press(MESSAGE_BOX, 'Enter');
    await page.waitFor('.message-assistant.status-streaming');
    await waitUntil(
      'the reply to finish',
      async () => (await page!.count('.message-assistant.status-streaming')) === 0,
    );
    await page.evaluate(SETTLE);
    expect(await page.evaluate<number>(FROM_END)).toBeLessThan(2);
    expect(await page.evaluate<number>(placeOf('last'))).toBe(MESSAGES + 2);
    expect(await page.problems()).toEqual([]);
  });
});
