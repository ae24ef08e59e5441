import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { startTestHost, TEST_CODE, type TestHost, type TestHostOptions } from '../support/testHost';

const here = dirname(fileURLToPath(import.meta.url));
/** Where screenshots go (git-ignored). */
const ARTIFACTS = join(here, '..', '.artifacts');

/** The two screens every page is checked on. */
export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** Fails early, with the fix, when the web client was not built (the host serves web/dist). */
export function assertWebBuilt(): void {
  const index = join(here, '..', '..', 'web', 'dist', 'index.html');
  if (!existsSync(index)) {
    throw new Error('web/dist is missing: run `npx pnpm --filter @webbridge/web build` first');
  }
}

/** Launches Debian's Chromium headless (never a downloaded browser). */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

/** A page and what went wrong in it (console errors, CSP violations, uncaught exceptions). */
export interface OpenedPage {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly problems: string[];
}

/** Opens a fresh context (own sessionStorage) at `url` with the given screen size. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = DESKTOP,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
  const page = await context.newPage();
  // Fail a step within the test's own timeout, naming the locator that was not found.
  page.setDefaultTimeout(8000);
  const problems: string[] = [];
  page.on('console', (message) => {
    // Failed requests the page handles itself (a refused code, a restarting host) are logged
    // by Chromium as console errors; they are expected, anything else is not.
    if (message.type() === 'error' && !/Failed to load resource|net::ERR_/.test(message.text()))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(url);
  return { context, page, problems };
}

/** Saves a screenshot into tests/.artifacts/. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/** Opens the page with the code in the fragment, as a QR code would, and waits until live. */
export async function openConnected(
  browser: Browser,
  h: TestHost,
  viewport: { width: number; height: number } = DESKTOP,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<OpenedPage> {
  const opened = await openPage(browser, `${h.url}/#code=${TEST_CODE}`, viewport, colorScheme);
  await opened.page.locator('.badge[data-status="live"]').waitFor();
  return opened;
}

/**
 * Starts a host again on the same port with the same data directory (a service restart as a
 * phone sees it): the page reconnects by itself to the URL it already has.
 */
export async function restartHost(previous: TestHost, options: TestHostOptions = {}): Promise<TestHost> {
  await previous.close();
  return startTestHost({ ...options, dataDir: previous.dataDir, port: previous.port });
}

/**
 * Evaluates `expression` in the page after every DOM mutation and keeps the values, to prove
 * what the page showed between two moments (a reply growing, a progress bar moving). The
 * expression is page-side JavaScript text: the tests' compiler has no DOM library.
 * Returns the function that reads the values so far.
 */
export async function recordOnMutation(page: Page, expression: string): Promise<() => Promise<unknown[]>> {
  await page.evaluate(`(() => {
    const seen = [];
    window.__records = seen;
    new MutationObserver(() => { seen.push(${expression}); })
      .observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
  return () => page.evaluate('window.__records') as Promise<unknown[]>;
}
