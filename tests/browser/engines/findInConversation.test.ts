import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHost } from '../../support/testHost';
import { assertWebBuilt } from '../browserHarness';
import { INSTANT_MODEL, LONG_REPLY_PROMPT, seedConversation, startScriptedHost } from '../scriptedModel';
import type { EngineBrowser, EnginePage } from './EnginePage';
import { MESSAGE_BOX, openConnected, shot, waitUntil } from './engineSteps';
import { engine, launchEngine } from './launchEngine';

/** Question/answer pairs after the first exchange: a conversation far taller than the screen. */
const EXCHANGES = 150;
/** The word only the first exchange has (its question, and the reply that echoes it). */
const WORD = 'Quetzalcoatl';
const FIELD = 'input.find-field';
const COUNT = '.find-count';

/**
 * Where the current match is: its text, the message it is in, and whether it is inside the
 * list's visible box; by the Custom Highlight API, or by the outline where an engine lacks it.
 */
const CURRENT = `(() => {
  const scroller = document.querySelector('.messages');
  const view = scroller.getBoundingClientRect();
  const inView = (box) => box.height > 0 && box.bottom > view.top && box.top < view.bottom;
  if (typeof CSS !== 'undefined' && CSS.highlights) {
    const current = CSS.highlights.get('find-current');
    const others = CSS.highlights.get('find-match');
    if (!current || current.size !== 1) return { api: true, text: null };
    const [range] = [...current];
    const message = range.startContainer.parentElement.closest('[data-message-id]');
    return { api: true, text: range.toString(), messageId: message && message.dataset.messageId,
      inView: inView(range.getBoundingClientRect()), others: others ? others.size : 0 };
  }
  const outlined = document.querySelector('.message.find-fallback');
  return { api: false, text: null, messageId: outlined && outlined.dataset.messageId,
    inView: !!outlined && inView(outlined.getBoundingClientRect()), others: 0 };
})()`;

interface Current {
  api: boolean;
  text: string | null;
  messageId?: string | null;
  inView?: boolean;
  others?: number;
}

/** Presses Ctrl+F on `selector`'s element as the page sees it; says whether the page took it. */
const ctrlF = (selector: string) => `(() => {
  const event = new KeyboardEvent('keydown', { key: 'f', code: 'KeyF', ctrlKey: true, bubbles: true, cancelable: true });
  document.querySelector('${selector}').dispatchEvent(event);
  return event.defaultPrevented;
})()`;

describe(`find in this conversation in ${engine}`, () => {
  let browser: EngineBrowser;
  let h: TestHost;
  let page: EnginePage | undefined;
  let first: { question: string; reply: string };

  beforeAll(async () => {
    assertWebBuilt();
    // Words 40 ms apart: the streamed reply of the last test runs for several seconds.
    [browser, h] = await Promise.all([launchEngine(), startScriptedHost(40)]);
    const { controller } = h.host;
    await seedConversation(h.host, 0, INSTANT_MODEL);
    // A question starting with ">" is echoed: the word is in the first two messages only.
    await controller.executor.run(() => controller.messages.send(`> The ${WORD} is a feathered serpent.`));
    await waitUntil('the first reply', async () => controller.readState().conversations.run.state === 'idle');
    await seedConversation(h.host, EXCHANGES);
    const [question, reply] = controller.readState().conversations.messages;
    first = { question: question?.id ?? '', reply: reply?.id ?? '' };
  }, 120_000);
  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await h?.close(true);
  });

  it('finds a word of the first messages, brings it into view highlighted, and cycles through the matches', async () => {
    page = await openConnected(browser, h);
    await page.waitFor('.message-list[aria-busy="false"]', { timeout: 30_000 });
    expect(await page.count('.find-bar')).toBe(0);
    // Ctrl+F opens the bar with its field focused; again in the field it is the browser's.
    expect(await page.evaluate<boolean>(ctrlF('body'))).toBe(true);
    await page.waitFor(FIELD);
    expect(
      await page.evaluate<boolean>(`document.activeElement === document.querySelector('${FIELD}')`),
    ).toBe(true);
    expect(await page.evaluate<boolean>(ctrlF(FIELD))).toBe(false);

    await page.fill(FIELD, WORD.toLowerCase());
    await waitUntil('the count', async () => (await page?.text(COUNT)) === '2 of 2');
    // The latest match first: the reply that echoed the word.
    let current: Current = { api: false, text: null };
    await waitUntil('the reply to be highlighted in view', async () => {
      current = (await page?.evaluate<Current>(CURRENT)) ?? current;
      return current.messageId === first.reply && current.inView === true;
    });
    // All three engines here have the Custom Highlight API (Chromium 105, Safari 17.2, Firefox
    // 140); the outline that stands in for it elsewhere is tested in highlightMatches.test.ts.
    expect(current).toMatchObject({ api: true, text: WORD, others: 0 });
    await shot(page, 'find-match');

    await page.press(FIELD, 'Enter');
    await waitUntil('the count', async () => (await page?.text(COUNT)) === '1 of 2');
    await waitUntil('the question to be highlighted', async () => {
      current = (await page?.evaluate<Current>(CURRENT)) ?? current;
      return current.messageId === first.question && current.inView === true;
    });
    await page.press(FIELD, 'Enter');
    await waitUntil('the count to wrap', async () => (await page?.text(COUNT)) === '2 of 2');
    await page.click('button[aria-label="Previous match"]');
    await waitUntil('the count', async () => (await page?.text(COUNT)) === '1 of 2');

    await page.fill(FIELD, 'no such word anywhere');
    await waitUntil('no matches', async () => (await page?.text(COUNT)) === 'No matches');
    await page.press(FIELD, 'Escape');
    await page.waitFor('.find-bar', { gone: true });
    const cleared = await page.evaluate<boolean>(
      `typeof CSS !== 'undefined' && CSS.highlights ? CSS.highlights.size === 0 : !document.querySelector('.find-fallback')`,
    );
    expect(cleared).toBe(true);
    expect(await page.problems()).toEqual([]);
  }, 90_000);

  it('Escape in the find bar closes it and leaves a streaming reply running', async () => {
    await page?.close();
    page = await openConnected(browser, h);
    await page.waitFor('.message-list[aria-busy="false"]', { timeout: 30_000 });
    await page.fill(MESSAGE_BOX, LONG_REPLY_PROMPT);
    await page.press(MESSAGE_BOX, 'Enter');
    await page.waitFor('.message-assistant .status-label-streaming');
    await page.click('button[aria-label="Find in this conversation"]');
    await page.fill(FIELD, WORD);
    await waitUntil('the count', async () => (await page?.text(COUNT)) === '2 of 2');
    await page.press(FIELD, 'Escape');
    await page.waitFor('.find-bar', { gone: true });
    // Focus went back to the button that opened the bar.
    expect(await page.evaluate<string>('document.activeElement.getAttribute("aria-label")')).toBe(
      'Find in this conversation',
    );
    expect(h.host.controller.readState().conversations.run.state).not.toBe('idle');
    await waitUntil(
      'the reply to finish',
      async () => h.host.controller.readState().conversations.run.state === 'idle',
      30_000,
    );
    expect(h.host.controller.readState().conversations.messages.at(-1)?.status).toBe('complete');
    expect(await page.problems()).toEqual([]);
  }, 90_000);
});
