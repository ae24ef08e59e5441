import type { CDPSession } from 'playwright-core';
import { preciseNow } from './table';

/**
 * Dispatches `count` presses of "a", `everyMs` apart, without waiting for the page to take any
 * (CDP answers a key only once the page handled it). Returns when each was sent (wall clock).
 */
export async function pressKeysWithoutWaiting(
  cdp: CDPSession,
  count: number,
  everyMs: number,
): Promise<number[]> {
  const sentAt: number[] = [];
  const answered: Promise<unknown>[] = [];
  const start = performance.now();
  const key = { key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65, nativeVirtualKeyCode: 65 };
  for (let i = 0; i < count; i++) {
    const wait = start + i * everyMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sentAt.push(preciseNow());
    // The event's time is when it was sent, so its timeStamp in the page is too.
    const timestamp = Date.now() / 1000;
    answered.push(
      cdp.send('Input.dispatchKeyEvent', {
        type: 'keyDown',
        text: 'a',
        unmodifiedText: 'a',
        timestamp,
        ...key,
      }),
      cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', timestamp, ...key }),
    );
  }
  await Promise.all(answered);
  return sentAt;
}

/**
 * Waits until the page has painted `keys` keys (its `window.__keys`, WHEN_KEY_PAINTED), or 30 s:
 * a missing key is reported by the caller. A function, not a string: the page's
 * Content-Security-Policy forbids eval, so a string predicate threw on every poll.
 */
export async function keysPainted(page: import('playwright-core').Page, keys: number): Promise<void> {
  await page
    .waitForFunction(
      (wanted: number) => (globalThis as unknown as { __keys: unknown[] }).__keys.length >= wanted,
      keys,
      { timeout: 30_000, polling: 100 },
    )
    .catch(() => undefined);
}
