import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openPage, PHONE, shot } from './browserHarness';

// Issue 31, item 6 (and the page's side of item 3): a link opened in a browser that is paired
// already never changes its pairing by itself, and a name the host refuses is asked again.

const VIEW_CODE = 'view-code-4h8w-2n6t';

const live = (page: Page) => page.locator('.badge[data-status="live"]').waitFor();

const keptCredential = async (page: Page) =>
  (
    (await page.evaluate("JSON.parse(localStorage.getItem('webbridge.device') ?? 'null')")) as {
      credential: string;
    } | null
  )?.credential;

/** Loads `url` anew in the page (the same URL with a fragment would only change the hash). */
async function reopen(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
}

describe('links opened in a browser that is paired already', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([
      launchBrowser(),
      startTestHost({ echoDelayMs: 5, viewCode: VIEW_CODE }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  /** A page paired for control by a printed link under `name`, live. */
  async function pairedPage(name: string) {
    const opened = await openPage(browser, `${h.url}/#pair=${h.host.bridge.pairingToken('control')}`, PHONE);
    await opened.page.getByLabel('Device name').fill(name);
    await opened.page.getByRole('button', { name: 'Pair' }).click();
    await live(opened.page);
    return opened;
  }

  it('a view-code link in a browser paired for control says what it would do, and demotes nothing until tapped', async () => {
    const { page, problems, context } = await pairedPage('Owner phone');
    const owner = await keptCredential(page);
    const before = h.host.bridge.devices.list().map((d) => [d.name, d.role]);
    expect(before).toHaveLength(1);

    await reopen(page, `${h.url}/#code=${VIEW_CODE}`);
    await page.getByRole('heading', { name: 'This browser is already paired' }).waitFor();
    expect(page.url()).toBe(`${h.url}/`);
    expect(await page.locator('.replacing').textContent()).toContain('only watch');
    await shot(page, 'phone-link-while-paired');
    // Nothing changed on the host or in the browser while the page asks.
    expect(h.host.bridge.devices.list().map((d) => [d.name, d.role])).toEqual(before);
    expect(await keptCredential(page)).toBe(owner);

    await page.getByRole('button', { name: 'Keep the current pairing' }).click();
    await live(page);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await keptCredential(page)).toBe(owner);
    expect(h.host.bridge.devices.list().map((d) => [d.name, d.role])).toEqual(before);

    // Asked again, the person chooses to pair again: now it watches, the old pairing is gone.
    await reopen(page, `${h.url}/#code=${VIEW_CODE}`);
    await page.getByRole('heading', { name: 'This browser is already paired' }).waitFor();
    await page.getByLabel('Device name').fill('Owner phone, watching');
    await page.getByRole('button', { name: 'Pair again' }).click();
    await live(page);
    await page.locator('.watching-bar').waitFor();
    expect(await keptCredential(page)).not.toBe(owner);
    await expect
      .poll(() => h.host.bridge.devices.list().map((d) => [d.name, d.role]))
      .toEqual([['Owner phone, watching', 'view']]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a code link for the role the browser has changes nothing and asks nothing', async () => {
    const { page, problems, context } = await pairedPage('Second phone');
    const owner = await keptCredential(page);
    const count = h.host.bridge.devices.list().length;
    await reopen(page, `${h.url}/#code=${TEST_CODE}`);
    await live(page);
    expect(await page.getByRole('heading', { name: 'This browser is already paired' }).count()).toBe(0);
    expect(await keptCredential(page)).toBe(owner);
    expect(h.host.bridge.devices.list()).toHaveLength(count);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a pairing link in a paired browser waits for a tap, and keeping the pairing leaves the link unspent', async () => {
    const { page, problems, context } = await pairedPage('Third phone');
    const owner = await keptCredential(page);
    const token = h.host.bridge.pairingToken('view');
    await reopen(page, `${h.url}/#pair=${token}`);
    await page.getByRole('heading', { name: 'This browser is already paired' }).waitFor();
    expect(await page.locator('.replacing').textContent()).toContain('only to watch');
    await page.getByRole('button', { name: 'Keep the current pairing' }).click();
    await live(page);
    expect(await keptCredential(page)).toBe(owner);
    // Still good for the browser it was meant for.
    const response = await fetch(`${h.url}/api/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, name: 'Kitchen screen' }),
    });
    expect(response.status).toBe(200);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a name another device has is asked again on the pairing page, with the link still good', async () => {
    const token = h.host.bridge.pairingToken('control');
    const taken = h.host.bridge.devices.list()[0]?.name ?? '';
    expect(taken).not.toBe('');
    const { page, problems, context } = await openPage(browser, `${h.url}/#pair=${token}`, PHONE);
    const name = page.getByLabel('Device name');
    await name.fill(` ${taken.toUpperCase()} `);
    await page.getByRole('button', { name: 'Pair' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('Another device already has this name');
    await shot(page, 'phone-pair-name-taken');
    await name.fill('Fourth phone');
    await page.getByRole('button', { name: 'Pair' }).click();
    await live(page);
    expect(h.host.bridge.devices.list().map((d) => d.name)).toContain('Fourth phone');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pages that pair under the browser’s suggested name get one of their own', async () => {
    const first = await openPage(browser, `${h.url}/#code=${TEST_CODE}`, PHONE);
    const second = await openPage(browser, `${h.url}/#code=${TEST_CODE}`, PHONE);
    await Promise.all([live(first.page), live(second.page)]);
    const names = h.host.bridge.devices.list().map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.some((n) => / \(2\)$/.test(n))).toBe(true);
    await first.context.close();
    await second.context.close();
  });
});
