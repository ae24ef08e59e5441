import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAndWait, waitFor } from '../support/api';
import { CHROMIUM_ARGS } from '../support/chromium';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { trustingFetch } from '../support/trustingFetch';
import { assertWebBuilt, openPage, shot } from './browserHarness';

// Chromium over real TLS. It trusts the host's serving certificate by its key (Chromium's
// SPKI pin of the leaf: pinning the authority's key is not honoured, see TOOLCHAIN.md), never
// by ignoring certificate errors; a browser without the pin is refused, so the pin is what
// makes the connection work.

const VIEW_CODE = 'view-code-4h8w-2n6t';

/** base64(sha256(SPKI)) of the first certificate in `<dataDir>/tls/server.crt` (the leaf). */
function leafSpkiHash(dataDir: string): string {
  const pem = readFileSync(join(dataDir, 'tls', 'server.crt'), 'utf8');
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
  if (!first) throw new Error('no certificate in server.crt');
  const spki = new X509Certificate(first).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

function launch(extra: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...extra],
  });
}

describe('Chromium over HTTPS with the serving key pinned', () => {
  let h: TestHost;
  let browser: Browser;
  const systemFetch = globalThis.fetch;

  beforeAll(async () => {
    assertWebBuilt();
    h = await startTestHost({ tls: true, viewCode: VIEW_CODE, echoDelayMs: 10 });
    globalThis.fetch = trustingFetch(readFileSync(join(h.dataDir, 'tls', 'ca.crt'), 'utf8'));
    const pin = `--ignore-certificate-errors-spki-list=${leafSpkiHash(h.dataDir)}`;
    expect(CHROMIUM_ARGS.join(' ')).not.toContain('--ignore-certificate-errors ');
    browser = await launch([pin]);
  });
  afterAll(async () => {
    globalThis.fetch = systemFetch;
    await browser?.close();
    await h?.close(true);
  });

  it('a browser without the pin refuses the certificate', async () => {
    const unpinned = await launch();
    try {
      const page = await unpinned.newPage();
      const failure = await page.goto(`${h.url}/`).then(
        () => 'loaded',
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/ERR_CERT_AUTHORITY_INVALID|ERR_CERT_/);
    } finally {
      await unpinned.close();
    }
  });

  it('connects with the code in the fragment, chats and sees the echo reply', async () => {
    expect(h.url).toMatch(/^https:/);
    const { page, problems, context } = await openPage(browser, `${h.url}/#code=${TEST_CODE}`);
    try {
      await page.locator('.badge[data-status="live"]').waitFor();
      expect(await page.evaluate('location.protocol')).toBe('https:');
      expect(await page.evaluate('window.isSecureContext')).toBe(true);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('hello from chromium over tls');
      await box.press('Enter');
      const reply = page.locator('.message-assistant').last();
      await expect.poll(() => reply.getAttribute('class'), { timeout: 10_000 }).toContain('status-complete');
      expect(await reply.textContent()).toContain('hello from chromium over tls');
      await shot(page, 'https-chromium-chat');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('with the view code the page watches: no composer, a "watching" badge, and it follows the host live', async () => {
    const { page, context } = await openPage(browser, `${h.url}/#code=${VIEW_CODE}`);
    try {
      await page.locator('.badge[data-status="live"]').waitFor();
      await sendAndWait(h, 'sent by the host while someone watches');
      await page.getByText('sent by the host while someone watches').first().waitFor({ timeout: 10_000 });
      await waitFor(async () => ((await page.locator('.message-assistant').count()) > 0 ? true : undefined));
      await shot(page, 'https-chromium-watching');
      expect(await page.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
      await page
        .getByText(/watching/i)
        .first()
        .waitFor({ timeout: 3000 });
      // Open the panels: nothing in them may act either (the server would refuse it: 403).
      await page.getByText('Settings', { exact: true }).click();
      await page
        .getByText(/^Tools/)
        .first()
        .click();
      const enabled = (await page.evaluate(
        `[...document.querySelectorAll('button, input, select, textarea, [contenteditable=true]')]
          .filter((e) => !e.matches(':disabled') && e.offsetParent !== null)
          .map((e) => e.getAttribute('aria-label') || e.labels?.[0]?.textContent.trim() || e.textContent.trim())`,
      )) as string[];
      // Besides leaving and copying, only what changes this browser alone: the shortcuts'
      // help, find in this conversation (reading) and the opt-in to notifications (a watcher
      // may want to know a reply finished).
      const local = /^(Disconnect|Copy message|Keyboard shortcuts|Find in this conversation|Notify me .*)$/;
      expect(enabled.filter((label) => !local.test(label))).toEqual([]);
      await shot(page, 'https-chromium-watching-open');
    } finally {
      await context.close();
    }
  });
});
