import type * as Sdk from '@webbridge/client-sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState } from '../support/api';
import { launchChromium } from '../support/chromium';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { bundleSdk } from './bundleSdk';

/** What the page reports back. */
interface PageResult {
  readonly userAgent: string;
  readonly statuses: string[];
  readonly reply: string;
  readonly appliedWhileStreaming: number;
  readonly progress: [number, number][];
  readonly attachmentSize: number;
}

describe('the SDK in real Chromium', () => {
  let h: TestHost;
  let browser: Browser;
  let bundle: string;

  beforeAll(async () => {
    [h, browser, bundle] = await Promise.all([
      startTestHost({ echoDelayMs: 3 }),
      launchChromium(),
      bundleSdk('WebbridgeSdk'),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
  });

  it('connects, sends, streams the reply into the store and uploads with XHR progress', async () => {
    const page = await browser.newPage();
    // The page and the bundle are served at the host's origin (so the SDK's requests are
    // same-origin, as in the real web client) under a CSP that allows this origin only.
    const csp = "default-src 'self'";
    await page.route(`${h.url}/__sdk__/**`, (route) => {
      const js = route.request().url().endsWith('.js');
      return route.fulfill({
        status: 200,
        headers: { 'Content-Type': js ? 'text/javascript' : 'text/html', 'Content-Security-Policy': csp },
        body: js ? bundle : '<!doctype html><title>sdk</title><script src="/__sdk__/sdk.js"></script>',
      });
    });
    await page.goto(`${h.url}/__sdk__/index.html`);
    const text = 'hello from chromium with several streamed words in it';

    const result = await page.evaluate(
      async ({ accessCode, text }): Promise<PageResult> => {
        // tests/ type-checks without the DOM library: the page's globals are declared here.
        const page = globalThis as unknown as {
          WebbridgeSdk: typeof Sdk;
          location: { origin: string };
          navigator: { userAgent: string };
        };
        const sdk = page.WebbridgeSdk;
        const client = sdk.createBridgeClient({ baseUrl: page.location.origin, accessCode });
        const statuses: string[] = [];
        let appliedWhileStreaming = 0;
        client.store.subscribe((s, previous) => {
          if (s.status !== previous.status) statuses.push(s.status);
          if (s.snapshot?.conversations.run.state === 'streaming' && s.sync !== previous.sync)
            appliedWhileStreaming++;
        });
        const until = (predicate: (s: Sdk.StoreState) => boolean) =>
          new Promise<Sdk.StoreState>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('timed out in the page')), 8000);
            const check = (s: Sdk.StoreState) => {
              if (!predicate(s)) return;
              clearTimeout(timer);
              unsubscribe();
              resolve(s);
            };
            const unsubscribe = client.store.subscribe(check);
            check(client.store.getState());
          });
        const connection = client.connect({ heartbeatMs: 15_000 });
        await until((s) => s.status === 'live' && s.snapshot !== null);
        const outcome = await client.send(text);
        if (outcome.kind !== 'done') throw new Error(`send: ${outcome.kind}`);
        const done = await until((s) => {
          const last = s.snapshot?.conversations.messages.at(-1);
          return last?.id === outcome.result.replyId && last.status === 'complete';
        });
        const progress: [number, number][] = [];
        const attachment = await client.upload(new Blob([new Uint8Array(300_000)]), 'zeros.bin', {
          onProgress: (loaded, total) => progress.push([loaded, total]),
        });
        connection.close();
        await connection.done;
        return {
          userAgent: page.navigator.userAgent,
          statuses,
          reply: done.snapshot?.conversations.messages.at(-1)?.text ?? '',
          appliedWhileStreaming,
          progress,
          attachmentSize: attachment.size,
        };
      },
      { accessCode: TEST_CODE, text },
    );

    expect(result.userAgent).toContain('Chrome');
    expect(result.reply).toBe(text);
    expect(result.statuses).toEqual(['live', 'offline']);
    expect(result.appliedWhileStreaming).toBeGreaterThan(2);
    expect(result.attachmentSize).toBe(300_000);
    expect(result.progress.at(-1)).toEqual([300_000, 300_000]);
    const truth = await getState(h);
    expect(truth.conversations.messages.at(-1)?.text).toBe(text);
    expect(truth.conversations.pending.map((p) => p.size)).toEqual([300_000]);
  });
});
