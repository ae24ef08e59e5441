import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHost } from '../support/testHost';
import {
  assertWebBuilt,
  DESKTOP,
  launchBrowser,
  openConnected,
  PHONE,
  recordOnMutation,
  shot,
} from './browserHarness';
import { readLayoutShift, sendAndWaitForReply, startLayoutShiftRecording } from './pageMetrics';
import { LONG_REPLY_PROMPT, seedConversation, startScriptedHost } from './scriptedModel';

/** Exchanges before the streamed reply: enough that the conversation scrolls on both screens. */
const HISTORY = 40;

describe('layout stability in Chromium while a reply streams', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startScriptedHost(12)]);
    await seedConversation(h.host, HISTORY);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  for (const [screen, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`moves nothing on screen while a markdown reply grows word by word (${screen})`, async () => {
      const { page, problems, context } = await openConnected(browser, h, viewport);
      const lengths = await recordOnMutation(
        page,
        "[...document.querySelectorAll('.message-assistant .body')].at(-1)?.textContent.length ?? 0",
      );
      await sendAndWaitForReply(page, LONG_REPLY_PROMPT, {
        // From the moment the text is in the box: a box that grows as it is filled is not
        // the reply's doing.
        beforeEnter: () => startLayoutShiftRecording(page),
      });
      const shift = await readLayoutShift(page);
      // The reply did stream (many sizes seen; a busy machine coalesces words into fewer
      // deltas) into a list, a code block and a heading: every kind of block grew under the
      // observer.
      expect(new Set(await lengths()).size).toBeGreaterThan(10);
      const reply = page.locator('.message-assistant').last();
      expect(await reply.locator('ol > li').count()).toBe(3);
      expect(await reply.locator('pre code').count()).toBe(1);
      // Nothing but the person's own input moves anything: a streaming mark that moved down
      // with each new line scored 0.0003 here, a caret after the last word 0.08.
      expect(shift.withoutInput, shift.sources.join('\n')).toBeLessThan(0.0001);
      expect(shift.all, shift.sources.join('\n')).toBeLessThan(0.01);
      // The page followed the reply to its end.
      const fromBottom = Number(
        await page.evaluate(
          "(() => { const el = document.querySelector('.messages'); return el.scrollHeight - el.scrollTop - el.clientHeight; })()",
        ),
      );
      expect(fromBottom).toBeLessThan(2);
      await shot(page, `${screen}-streamed-reply`);
      expect(problems).toEqual([]);
      await context.close();
    }, 40_000);
  }
});
