import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../support/chromium';

/** A Chromium this process started, attached over the DevTools protocol. */
export interface CdpChromium {
  readonly browser: Browser;
  /** Stops the browser and removes its profile. */
  close(): Promise<void>;
}

/**
 * Launches Debian's Chromium with a DevTools port and attaches with `connectOverCDP(…,
 * { noDefaults: true })`. Under playwright's own launch the page is kept "visible and focused"
 * by emulation, and `Page.setWebLifecycleState` changes nothing; attached this way, freezing
 * a page really freezes it (no byte reaches it until it is active again), as a phone does to a
 * background tab.
 */
export async function launchCdpChromium(): Promise<CdpChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'webbridge-cdp-'));
  const child: ChildProcess = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    // Its own process group, so closing can end the browser and every helper it started.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no DevTools endpoint: ${seen.slice(-500)}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chromium exited (${code}): ${seen.slice(-500)}`));
    });
  });
  child.stderr?.resume();
  const browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  return {
    browser,
    async close() {
      // Bounded everywhere: a browser whose page a test left frozen may not answer a polite
      // close, and a hook that waits for ever fails the whole file (seen in a CI rehearsal).
      await Promise.race([browser.close().catch(() => undefined), delay(5_000)]);
      if (child.exitCode === null && child.pid !== undefined) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        await Promise.race([exited, delay(5_000)]);
      }
      // Chromium's helper processes may still write to the profile for a moment after it exits
      // (a loaded CI machine once outlasted 50 retries: ENOTEMPTY). The profile lies inside the
      // run's temporary folder, which the global setup removes when the run ends, so a profile
      // that cannot be removed yet is left for that, never failing the tests that used it.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {
        // Removed with the run's temporary folder.
      }
    },
  };
}

/**
 * Freezes a page as a phone freezes a background tab: it becomes hidden, then timers, tasks
 * and network delivery stop.
 */
export async function freeze(page: Page, cdp?: CDPSession): Promise<CDPSession> {
  const session = cdp ?? (await page.context().newCDPSession(page));
  // Focus emulation keeps a page visible, and a visible page does not freeze.
  await session.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  await session.send('Page.setWebLifecycleState', { state: 'frozen' });
  return session;
}

/**
 * Resumes a frozen page and brings it back to the foreground, as when the person opens the tab
 * again: it gets the lifecycle `resume` event, then becomes visible (`visibilitychange`). A
 * resumed page stays hidden otherwise (and would paint no frame).
 */
export async function unfreeze(cdp: CDPSession): Promise<void> {
  await cdp.send('Page.setWebLifecycleState', { state: 'active' });
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
