import puppeteer, { type ElementHandle, type Page } from 'puppeteer-core';
import type { EngineBrowser } from './EnginePage';
import { type EngineDriver, makeEnginePage } from './makeEnginePage';

/** Debian's Firefox ESR. */
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Sets the page's viewport. puppeteer-core 24.43 sends BiDi's `browsingContext.setViewport` and
 * `emulation.setScreenOrientationOverride` together; Firefox ESR 140 (Debian's now) knows only
 * the first and answers "unknown command" for the second, which rejects the whole call while
 * the viewport is being set. That one refusal is let through once the page has the asked width.
 */
async function setViewport(page: Page, size: { width: number; height: number }): Promise<void> {
  try {
    await page.setViewport({ ...size, deviceScaleFactor: 1 });
  } catch (error) {
    if (!String(error).includes('setScreenOrientationOverride')) throw error;
    // The viewport's own command went out with it and may still be on its way.
    for (const started = Date.now(); Date.now() - started < 5_000; ) {
      if ((await page.evaluate('window.innerWidth')) === size.width) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw error;
  }
}

/**
 * Firefox ESR through puppeteer-core over WebDriver BiDi (no geckodriver, nothing downloaded).
 * Each page is a user context of its own (separate storage), as a Playwright context is.
 */
export async function launchFirefoxEngine(): Promise<EngineBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    // This closed network refuses every outside connection: nothing to update or report.
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'toolkit.telemetry.enabled': false,
      'datareporting.policy.dataSubmissionEnabled': false,
    },
  });
  return {
    engine: 'firefox',
    async openPage(url, viewport, options = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await setViewport(page, viewport);
      const reported: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !/Failed to load resource|NetworkError/.test(message.text()))
          reported.push(message.text());
      });
      page.on('pageerror', (error) => reported.push(`pageerror: ${String(error)}`));
      const driver: EngineDriver<ElementHandle> = {
        engine: 'firefox',
        reported,
        evaluate: <T>(expression: string) => page.evaluate(expression) as Promise<T>,
        element: async (expression) =>
          (await page.evaluateHandle(expression)).asElement() as ElementHandle | null,
        click: (element) => element.click(),
        press: (element, key) => element.press(key),
        type: (element, text) => element.type(text),
        // Typed for an HTMLInputElement, which this package (no DOM library) cannot name.
        upload: (element, paths) =>
          (element as unknown as { uploadFile(...files: string[]): Promise<void> }).uploadFile(...paths),
        goto: async (to) => {
          await page.goto(to);
        },
        reload: async () => {
          await page.reload();
        },
        // The document's own address: puppeteer's page.url() over BiDi can miss a
        // history.replaceState (the page taking the code out of its address).
        url: async () => page.evaluate('location.href') as Promise<string>,
        setViewport: (size) => setViewport(page, size),
        screenshot: () => page.screenshot(),
        // WebDriver BiDi's permissions.setPermission.
        grantNotifications: (origin) => context.overridePermissions(origin, ['notifications']),
        close: () => context.close(),
      };
      // WebDriver BiDi's script.addPreloadScript.
      if (options.early !== undefined) await page.evaluateOnNewDocument(options.early);
      const opened = makeEnginePage(driver);
      await opened.goto(url);
      return opened;
    },
    close: () => browser.close(),
  };
}
