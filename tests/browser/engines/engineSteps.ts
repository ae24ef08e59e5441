import { TEST_CODE, type TestHost } from '../../support/testHost';
import type { EngineBrowser, EnginePage, Viewport } from './EnginePage';
import { engine } from './launchEngine';

/** The phone every screen of the cross-engine suite is checked (and photographed) on. */
export const PHONE: Viewport = { width: 390, height: 844 };

/** The live badge: the page has its snapshot and follows the stream. */
export const LIVE = '.badge[data-status="live"]';
/** The message box (its accessible name is the label "Message"). */
export const MESSAGE_BOX = 'textarea[aria-label="Message"]';

/** Opens the page with the code in the fragment, as a QR code would, and waits until live. */
export async function openConnected(
  browser: EngineBrowser,
  h: Pick<TestHost, 'url'>,
  code = TEST_CODE,
  viewport = PHONE,
): Promise<EnginePage> {
  const page = await browser.openPage(`${h.url}/#code=${code}`, viewport);
  await page.waitFor(LIVE, { timeout: 15_000 });
  return page;
}

/** Saves a screenshot named after the engine: `engine-<engine>-<name>.png`. */
export function shot(page: EnginePage, name: string): Promise<void> {
  return page.screenshot(`engine-${engine}-${name}`);
}

/** How many replies have finished. */
function completeReplies(page: EnginePage): Promise<number> {
  return page.count('.message-assistant.status-complete');
}

/** Types `text` into the message box and presses Enter; resolves once its reply is complete. */
export async function say(page: EnginePage, text: string, box = MESSAGE_BOX): Promise<void> {
  const before = await completeReplies(page);
  await page.fill(box, text);
  await page.press(box, 'Enter');
  await waitUntil(`reply ${before + 1} to be complete`, async () => (await completeReplies(page)) > before);
}

/** Polls `check` until it is true (or fails naming `what`), as `expect.poll` but for any engine. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeout = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
