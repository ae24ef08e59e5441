import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../support/chromium';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, DESKTOP, launchBrowser, openPage, PHONE, restartHost, shot } from './browserHarness';

// Pairing in real Chromium against a real host: by the printed link and by the typed code, a
// paired page reopening with no code (reload, host restart), a device forgotten from another
// page, and a browser profile on disk that holds no access code after a visit and Disconnect.

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const live = (page: Page) => page.locator('.badge[data-status="live"]').waitFor();

const keptDevice = (page: Page) =>
  page.evaluate("JSON.parse(localStorage.getItem('webbridge.device') ?? 'null')") as Promise<{
    credential: string;
    deviceId: string;
  } | null>;

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return [];
    return stat.isDirectory() ? filesUnder(path) : [path];
  });
}

describe('pairing a browser in Chromium', () => {
  let browser: Browser;
  let h: TestHost;

  beforeAll(async () => {
    assertWebBuilt();
    [browser, h] = await Promise.all([launchBrowser(), startTestHost({ echoDelayMs: 5 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('pairs by the printed link, named by the person, and reopens with no code after a reload and a host restart', async () => {
    const token = h.host.bridge.pairingToken('control');
    const { page, problems, context } = await openPage(browser, `${h.url}/#pair=${token}`, PHONE);
    const name = page.getByLabel('Device name');
    await name.waitFor();
    // The token left the address bar before anything else happened.
    expect(page.url()).toBe(`${h.url}/`);
    expect(await name.inputValue()).toMatch(/Chrome on Linux/);
    await shot(page, 'phone-pair-link');
    await name.fill('Test phone');
    await page.getByRole('button', { name: 'Pair' }).click();
    await live(page);
    const kept = await keptDevice(page);
    expect(kept?.credential).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(h.host.bridge.devices.list().map((d) => [d.name, d.role])).toEqual([['Test phone', 'control']]);
    expect(await page.evaluate('JSON.stringify({ ...sessionStorage })')).not.toContain(TEST_CODE);

    await page.reload();
    await live(page);
    expect(await page.getByLabel('Access code').count()).toBe(0);

    // The link is spent: opened again, it offers to type the code instead.
    const other = await openPage(browser, `${h.url}/#pair=${token}`, PHONE);
    await other.page.getByRole('button', { name: 'Pair' }).click();
    const alert = other.page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('already used');
    expect(await other.page.getByLabel('Access code').count()).toBe(1);
    await shot(other.page, 'phone-pair-link-spent');
    h = await restartHost(h, { echoDelayMs: 5 });
    // The open page reconnects by itself; a page opened afresh (the installed app) asks nothing.
    await live(page);
    const again = await context.newPage();
    await again.goto(h.url);
    await live(again);
    expect(await again.getByLabel('Access code').count()).toBe(0);

    expect(problems).toEqual([]);
    await other.context.close();
    await context.close();
  });

  it('pairs by the typed code with "remember this device" on by default; the code is kept nowhere', async () => {
    const { page, problems, context } = await openPage(browser, h.url, PHONE);
    await page.getByLabel('Access code').fill(TEST_CODE);
    expect(await page.getByLabel('Remember this device').isChecked()).toBe(true);
    await page.getByLabel('Device name').fill('Typed phone');
    await shot(page, 'phone-connect-remember');
    await page.getByRole('button', { name: 'Connect' }).click();
    await live(page);
    const stored = await page.evaluate('JSON.stringify({ ...localStorage, ...sessionStorage })');
    expect(stored).not.toContain(TEST_CODE);
    expect((await keptDevice(page))?.deviceId).toBe(
      h.host.bridge.devices.list().find((d) => d.name === 'Typed phone')?.id,
    );
    await page.reload();
    await live(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByText('Devices', { exact: true }).click();
    await page.getByText('This device: Typed phone').waitFor();
    await page.getByText('Devices', { exact: true }).scrollIntoViewIfNeeded();
    await shot(page, 'phone-devices');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a paired page whose host does not answer says so, keeps its credential and tries again', async () => {
    const { page, context } = await openPage(browser, h.url, PHONE);
    await page.getByLabel('Access code').fill(TEST_CODE);
    await page.getByRole('button', { name: 'Connect' }).click();
    await live(page);
    // The page loads, but its check of the state cannot reach the host (Wi-Fi gone after load).
    await page.route('**/api/state', (route) => route.abort('connectionrefused'));
    await page.reload();
    const alert = page.getByRole('alert');
    await expect
      .poll(async () => ((await alert.count()) > 0 ? await alert.textContent() : ''))
      .toContain('did not answer');
    expect(await keptDevice(page)).not.toBeNull();
    await shot(page, 'phone-paired-host-unreachable');
    await page.unroute('**/api/state');
    await page.getByRole('button', { name: 'Try again' }).click();
    await live(page);
    await context.close();
  });

  it('forgets a device from another page: its stream ends and it asks for the code again', async () => {
    const phone = await openPage(browser, h.url, DESKTOP);
    await phone.page.getByLabel('Access code').fill(TEST_CODE);
    await phone.page.getByLabel('Device name').fill('Forgotten phone');
    await phone.page.getByRole('button', { name: 'Connect' }).click();
    await live(phone.page);
    const phoneDevice = await keptDevice(phone.page);
    const forgottenId = phoneDevice?.deviceId;
    // A media id handed out to the phone: revoked once the phone is forgotten.
    const asPhone = { Authorization: `Bearer ${phoneDevice?.credential}` };
    const uploaded = await fetch(`${h.url}/api/upload?name=dot.png`, {
      method: 'POST',
      headers: { ...asPhone, 'Content-Type': 'image/png' },
      body: PNG,
    });
    expect(uploaded.status).toBe(201);
    const state = (await (await fetch(`${h.url}/api/state`, { headers: asPhone })).json()) as {
      conversations: { pending: { media: { id: string } }[] };
    };
    const mediaId = state.conversations.pending.at(-1)?.media.id;
    expect((await fetch(`${h.url}/api/media?id=${mediaId}`)).status).toBe(200);

    const laptop = await openPage(browser, h.url, DESKTOP);
    await laptop.page.getByLabel('Access code').fill(TEST_CODE);
    await laptop.page.getByLabel('Device name').fill('Laptop');
    await laptop.page.getByRole('button', { name: 'Connect' }).click();
    await live(laptop.page);
    await laptop.page.getByText('Devices', { exact: true }).click();
    await laptop.page.getByText('This device: Laptop').waitFor();
    await shot(laptop.page, 'desktop-devices');
    await laptop.page.getByRole('button', { name: 'Forget Forgotten phone' }).click();
    await expect.poll(() => laptop.page.getByText('Forgotten phone').count()).toBe(0);

    const alert = phone.page.getByRole('alert');
    await expect
      .poll(async () => ((await alert.count()) > 0 ? await alert.textContent() : ''))
      .toContain('no longer paired');
    expect(await keptDevice(phone.page)).toBeNull();
    expect(h.host.bridge.devices.list().some((d) => d.id === forgottenId)).toBe(false);
    expect((await fetch(`${h.url}/api/media?id=${mediaId}`)).status).toBe(404);
    // The laptop, paired on its own, stays connected (its stream restarts, media ids renewed).
    await live(laptop.page);
    await shot(phone.page, 'desktop-device-forgotten');
    expect(phone.problems).toEqual([]);
    expect(laptop.problems).toEqual([]);
    await phone.context.close();
    await laptop.context.close();
  });
});

describe('a browser profile on disk', () => {
  it('holds no access code after a visit by the printed link, a typed code, and Disconnect', async () => {
    assertWebBuilt();
    const h = await startTestHost({ echoDelayMs: 5 });
    const profile = mkdtempSync(join(tmpdir(), 'webbridge-profile-'));
    try {
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: [...CHROMIUM_ARGS],
        viewport: PHONE,
      });
      const page = context.pages()[0] ?? (await context.newPage());
      const token = h.host.bridge.pairingToken('control');
      await page.goto(`${h.url}/#pair=${token}`);
      await page.getByRole('button', { name: 'Pair' }).click();
      await live(page);
      const first = await keptDevice(page);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Disconnect' }).click();
      const field = page.getByLabel('Access code');
      await field.waitFor();
      expect(await field.inputValue()).toBe('');
      expect(await keptDevice(page)).toBeNull();
      // Disconnect forgot the device on the host too: its credential is a wrong code now.
      await expect.poll(() => h.host.bridge.devices.list().length).toBe(0);
      const refused = await fetch(`${h.url}/api/state`, {
        headers: { Authorization: `Bearer ${first?.credential}` },
      });
      expect(refused.status).toBe(401);

      // Now the typed code, remembered, and Disconnect again: the form is empty afterwards.
      await field.fill(TEST_CODE);
      await page.getByRole('button', { name: 'Connect' }).click();
      await live(page);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await field.waitFor();
      expect(await field.inputValue()).toBe('');
      await page.goto('about:blank');
      // Closing flushes History, Sessions, Local Storage and the rest to disk.
      await context.close();

      const files = filesUnder(profile);
      const code = Buffer.from(TEST_CODE);
      const holding = files.filter((file) => {
        try {
          return readFileSync(file).includes(code);
        } catch {
          return false;
        }
      });
      expect(holding.map((file) => file.slice(profile.length))).toEqual([]);
      // The profile was really written (History and Local Storage among others).
      expect(files.some((file) => file.endsWith('History'))).toBe(true);
      expect(files.some((file) => file.includes('Local Storage'))).toBe(true);
      // What history keeps of the link is its spent token.
      const history = files.filter((file) => readFileSync(file).includes(Buffer.from(token)));
      expect(history.length).toBeGreaterThan(0);
    } finally {
      rmSync(profile, { recursive: true, force: true });
      await h.close(true);
    }
  });
});
