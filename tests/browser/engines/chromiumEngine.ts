import type { ElementHandle, Page } from 'playwright-core';
import { launchChromium } from '../../support/chromium';
import type { EngineBrowser } from './EnginePage';
import { type EngineDriver, makeEnginePage } from './makeEnginePage';

/** Debian's Chromium through playwright-core (CDP), as the Chromium-only tests drive it. */
export async function launchChromiumEngine(): Promise<EngineBrowser> {
  const browser = await launchChromium();
  return {
    engine: 'chromium',
    async openPage(url, viewport, options = {}) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      const page: Page = await context.newPage();
      const reported: string[] = [];
      page.on('console', (message) => {
        // A refused code or a restarting host is logged as a failed request: expected.
        if (message.type() === 'error' && !/Failed to load resource|net::ERR_/.test(message.text()))
          reported.push(message.text());
      });
      page.on('pageerror', (error) => reported.push(`pageerror: ${error.message}`));
      const driver: EngineDriver<ElementHandle> = {
        engine: 'chromium',
        reported,
        evaluate: (expression) => page.evaluate(expression),
        element: async (expression) => (await page.evaluateHandle(expression)).asElement(),
        click: (element) => element.click(),
        press: (element, key) => element.press(key),
        type: (element, text) => element.type(text),
        upload: (element, paths) => element.setInputFiles([...paths]),
        goto: async (to) => {
          await page.goto(to);
        },
        reload: async () => {
          await page.reload();
        },
        url: async () => page.url(),
        setViewport: (size) => page.setViewportSize(size),
        screenshot: () => page.screenshot(),
        grantNotifications: (origin) => context.grantPermissions(['notifications'], { origin }),
        close: () => context.close(),
      };
      if (options.early !== undefined) await page.addInitScript(options.early);
      const opened = makeEnginePage(driver);
      await opened.goto(url);
      return opened;
    },
    close: () => browser.close(),
  };
}
