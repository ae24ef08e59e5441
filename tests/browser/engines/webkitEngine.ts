import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Builder, Key, type WebDriver, type WebElement } from 'selenium-webdriver';
import type { EngineBrowser, OpenOptions } from './EnginePage';
import { type EngineDriver, makeEnginePage } from './makeEnginePage';

/** WebKitGTK's MiniBrowser from Debian's libwebkit2gtk-4.1 (what webkit2gtk-driver drives). */
const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/**
 * A GTK configuration folder whose style sheet shrinks MiniBrowser's own toolbar: its buttons
 * and address field make the window at least 447 px wide, wider than a phone, and GTK's style
 * does not reach the page (WebKit draws the page's controls itself).
 */
function narrowToolbarConfig(): string {
  const home = mkdtempSync(join(tmpdir(), 'webbridge-webkit-'));
  mkdirSync(join(home, 'gtk-3.0'));
  writeFileSync(
    join(home, 'gtk-3.0', 'gtk.css'),
    '* { font-size: 3px; padding: 0; margin: 0; min-width: 0; min-height: 0; border-width: 0; }\n',
  );
  return home;
}

/** A free loopback port (taken and released at once; the driver binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Waits until the driver answers its status endpoint (or its process has ended). */
async function driverReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('WebKitWebDriver did not start within 15 s');
}

/** Ends the driver's whole process group: xvfb-run, Xvfb, the driver and any MiniBrowser. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const late = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, 3000);
  await exited;
  clearTimeout(late);
}

/**
 * Navigates with a session that does not wait for loads (page load strategy 'none', which
 * {@link OpenOptions.early} needs: WebDriver classic has no init scripts, and with the default
 * strategy the first script would run after the load event), then waits for the load itself:
 * the old document is marked, the new one answers unmarked and from `to`'s origin (a navigation
 * to another site first shows an empty document in a new web process). `early` runs in the new
 * document once, at its first answer.
 */
async function navigateEarly(
  session: WebDriver,
  to: string,
  go: () => Promise<void>,
  early: string,
): Promise<void> {
  const origin = JSON.stringify(new URL(to).origin);
  await session.executeScript('window.__webbridgeLeaving = true;');
  await go();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await session
      .executeScript<string | null>(
        `if (window.__webbridgeLeaving || location.origin !== ${origin}) return null;
        if (!window.__webbridgeEarly) { window.__webbridgeEarly = true; ${early}; }
        return document.readyState;`,
      )
      // A document being replaced may refuse a script; the next try reaches the new one.
      .catch(() => null);
    if (state === 'complete') return;
    if (Date.now() > deadline) throw new Error('the page did not load within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * WebKit as Safari's engine runs here: WebKitGTK's MiniBrowser driven by Debian's
 * WebKitWebDriver (WebDriver classic, through selenium-webdriver) on a virtual display
 * (MiniBrowser has no headless mode). Each page is a WebDriver session of its own, so a fresh
 * browser with fresh storage, as a Playwright context is; the driver serves one session at a time.
 */
export async function launchWebKitEngine(): Promise<EngineBrowser> {
  const port = await freePort();
  const config = narrowToolbarConfig();
  // A screen larger than any viewport a test asks for (xvfb-run's default is 640x480x8); its
  // own process group, so that closing ends the display, the driver and the browser together.
  const child = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1600x1200x24', 'WebKitWebDriver', `--port=${port}`],
    { detached: true, stdio: 'ignore', env: { ...process.env, XDG_CONFIG_HOME: config } },
  );
  // A worker that ends without closing (a timed-out hook, a crash) must not leave the display,
  // the driver and a browser running: the group is its own, so nothing else would end it.
  const killOnExit = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  process.once('exit', killOnExit);
  const quit = async () => {
    process.off('exit', killOnExit);
    await stop(child);
    rmSync(config, { recursive: true, force: true });
  };
  const server = `http://127.0.0.1:${port}`;
  try {
    await driverReady(server, child);
  } catch (error) {
    await quit();
    throw error;
  }
  return {
    engine: 'webkit',
    async openPage(url, viewport, options = {}) {
      const { early } = options;
      const session: WebDriver = await new Builder()
        .usingServer(server)
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
          ...(early === undefined ? {} : { pageLoadStrategy: 'none' }),
        })
        .build();
      const driver: EngineDriver<WebElement> = {
        engine: 'webkit',
        // WebDriver classic reports neither console messages nor page errors: the page-side
        // recorder (pageScripts.ts) is all there is.
        reported: [],
        evaluate: (expression) => session.executeScript(`return ${expression};`),
        element: (expression) => session.executeScript<WebElement | null>(`return ${expression};`),
        click: (element) => element.click(),
        // In WebKit `sendKeys('\n')` types nothing; the key's own code is needed.
        press: (element, key) => element.sendKeys(key === 'Enter' ? Key.ENTER : Key.ESCAPE),
        type: (element, text) => element.sendKeys(text),
        upload: (element, paths) => element.sendKeys(paths.join('\n')),
        goto: (to) =>
          early === undefined ? session.get(to) : navigateEarly(session, to, () => session.get(to), early),
        reload: async () =>
          early === undefined
            ? session.navigate().refresh()
            : navigateEarly(
                session,
                await session.getCurrentUrl(),
                () => session.navigate().refresh(),
                early,
              ),
        url: () => session.getCurrentUrl(),
        async setViewport(size) {
          // WebDriver sizes the window; the page's inner size is what a test means. The window
          // resizes asynchronously (a loaded machine once measured the old size), so the size
          // is measured until it holds, the window's frame (its toolbar) added each time.
          const window = session.manage().window();
          const deadline = Date.now() + 5000;
          for (;;) {
            const [innerWidth, innerHeight, outerWidth, outerHeight] = await session.executeScript<
              [number, number, number, number]
            >('return [innerWidth, innerHeight, outerWidth, outerHeight];');
            if (innerWidth === size.width && innerHeight === size.height) return;
            if (Date.now() > deadline)
              throw new Error(
                `MiniBrowser's page is ${innerWidth}x${innerHeight}, not ${size.width}x${size.height}`,
              );
            await window.setRect({
              width: size.width + outerWidth - innerWidth,
              height: size.height + outerHeight - innerHeight,
            });
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        },
        // No grantNotifications: WebDriver classic has no permission command, and
        // WebKitWebDriver no extension for one.
        screenshot: async () => Buffer.from(await session.takeScreenshot(), 'base64'),
        close: () => session.quit(),
      };
      const opened = makeEnginePage(driver);
      try {
        await opened.setViewport(viewport);
        await opened.goto(url);
      } catch (error) {
        await session.quit().catch(() => undefined);
        throw error;
      }
      return opened;
    },
    close: quit,
  };
}
