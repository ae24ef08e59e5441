import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, getState, guardOf, waitFor } from '../support/api';
import { startTcpRelay, type TcpRelay } from '../support/tcpRelay';
import { TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, PHONE, restartHost, shot } from './browserHarness';
import { type CdpChromium, freeze, launchCdpChromium, unfreeze } from './cdpChromium';
import { PACED_MODEL, scriptedModels, startScriptedHost } from './scriptedModel';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical axe-core findings on the page as it is (contrast of the badge's age,
 * the not-live notice, the pending list). Evaluated through the DevTools protocol, which the
 * page's CSP does not govern.
 */
async function seriousFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  return (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => v.id + ' ' + n.target.join(' ') + ': ' + (n.failureSummary || v.help))))`)) as string[];
}

/** A reply of `n` plain words (no markdown), so its last word is easy to find on screen. */
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

/** The text of the last assistant message on screen and whether it is complete. */
const lastReply = (page: Page) =>
  page.evaluate(`(() => {
    const all = document.querySelectorAll('.message-assistant');
    const last = all[all.length - 1];
    return last ? { text: last.textContent, complete: last.classList.contains('status-complete') } : null;
  })()`) as Promise<{ text: string; complete: boolean } | null>;

/** Sends a message through the API, as another device would. */
async function sendFromElsewhere(h: Pick<TestHost, 'url' | 'auth'>, text: string): Promise<void> {
  await act(h, { action: 'send', text, ...guardOf(await getState(h)) });
}

describe('staying current on a phone (Chromium at 390×844)', () => {
  let chromium: CdpChromium;
  let context: BrowserContext;
  let page: Page;
  let h: TestHost;
  let relay: TcpRelay;
  const problems: string[] = [];

  beforeAll(async () => {
    assertWebBuilt();
    [chromium, h] = await Promise.all([launchCdpChromium(), startScriptedHost(10)]);
    relay = await startTcpRelay(h.port);
    // The default context of a Chromium we started: the one whose pages can be frozen for real.
    context = chromium.browser.contexts()[0]!;
    page = context.pages()[0]!;
    await page.setViewportSize(PHONE);
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => problems.push(error.message));
  });
  afterEach(async () => {
    // A failed test must not leave the next one without a network.
    relay?.restore();
    await context?.setOffline(false);
  });
  afterAll(async () => {
    await chromium?.close();
    await relay?.close();
    await h?.close(true);
  }, 60_000);

  /** Opens the page (through the relay when asked) and waits until it is live. */
  const open = async (via: 'direct' | 'relay') => {
    const port = via === 'relay' ? relay.port : h.port;
    await page.goto(`http://127.0.0.1:${port}/#code=${TEST_CODE}`);
    await page.locator('.badge[data-status="live"]').waitFor();
  };

  it('shows the complete reply after being frozen while it streamed', async () => {
    await open('direct');
    // The scripted model streams a word every 10 ms: 300 words take 3 s.
    await h.host.controller.executor.run(() => h.host.controller.conversations.setModel(PACED_MODEL));
    const reply = words(300, 'frozen');
    await sendFromElsewhere(h, `> ${reply}`);
    await waitFor(async () => ((await lastReply(page))?.text.includes('frozen3') ? true : undefined));
    const cdp = await freeze(page);
    // The reply ends while the page hears nothing.
    await waitFor(
      () => (h.host.controller.readState().conversations.run.state === 'idle' ? true : undefined),
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Really frozen: the reply is complete on the host, not on the page.
    const during = await cdp.send('Runtime.evaluate', {
      expression:
        "[...document.querySelectorAll('.message-assistant')].at(-1)?.textContent.includes('frozen299')",
      returnByValue: true,
    });
    expect(during.result.value).toBe(false);
    await unfreeze(cdp);
    expect(await page.evaluate('document.visibilityState')).toBe('visible');
    await waitFor(async () => {
      const last = await lastReply(page);
      return last?.complete && last.text.includes('frozen299') ? true : undefined;
    }, 8_000);
    await page.locator('.badge[data-status="live"]').waitFor();
    expect(problems).toEqual([]);
  });

  it('stops claiming live when the network dies silently, and comes back when it returns', async () => {
    // Short heartbeats keep the test quick: the page must notice within an interval plus a grace.
    h = await restartHost(h, { heartbeatMs: 1_500, providers: [scriptedModels(10)] });
    await open('relay');
    relay.cut();
    await page.locator('.badge:not([data-status="live"])').waitFor({ timeout: 8_000 });
    await expect(page.locator('.badge-since').textContent()).resolves.toMatch(/last current/);
    // The page says it is not live, and offers no Stop for a reply it cannot see.
    await expect(page.locator('.composer-not-live').count()).resolves.toBe(1);
    await shot(page, 'phone-badge-reconnecting');
    expect(await seriousFindings(page)).toEqual([]);

    relay.restore();
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 10_000 });
    await sendFromElsewhere(h, '> back again');
    await waitFor(async () => ((await lastReply(page))?.text.includes('back again') ? true : undefined));
  });

  it('keeps a message sent while offline pending, and sends it once when the network returns', async () => {
    await open('relay');
    relay.cut();
    await context.setOffline(true);
    await page.locator('.badge[data-status="offline"]').waitFor({ timeout: 8_000 });
    await shot(page, 'phone-badge-offline');
    await page.locator('.composer-input').fill('> sent from a tunnel');
    await page.locator('.composer-input').press('Enter');
    await page.locator('.pending-action', { hasText: 'Sending…' }).waitFor();
    await shot(page, 'phone-pending-send');
    expect(await seriousFindings(page)).toEqual([]);

    relay.restore();
    await context.setOffline(false);
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 10_000 });
    await page.locator('.pending-action').waitFor({ state: 'detached' });
    await waitFor(async () =>
      (await lastReply(page))?.text.includes('sent from a tunnel') ? true : undefined,
    );
    const sent = h.host.controller
      .readState()
      .conversations.messages.filter((m) => m.role === 'user' && m.text === '> sent from a tunnel');
    expect(sent).toHaveLength(1);
  });

  it('is not live while the host restarts, and live again on the new run', async () => {
    await open('direct');
    await h.close();
    await page.locator('.badge:not([data-status="live"])').waitFor({ timeout: 8_000 });
    h = await restartHost(h, { providers: [scriptedModels(10)] });
    await page.locator('.badge[data-status="live"]').waitFor({ timeout: 10_000 });
    await sendFromElsewhere(h, '> after the restart');
    await waitFor(async () =>
      (await lastReply(page))?.text.includes('after the restart') ? true : undefined,
    );
    expect(problems).toEqual([]);
  });
});
