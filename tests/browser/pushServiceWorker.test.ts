import { type PushPayload, pushPayloadSchema } from '@webbridge/contract';
import type { Browser, CDPSession, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getState, guardOf, postAction, waitFor } from '../support/api';
import {
  type LocalPushService,
  type LocalSubscription,
  startLocalPushService,
} from '../support/localPushService';
import { startTestHost, TEST_CODE, type TestHost } from '../support/testHost';
import { assertWebBuilt, launchBrowser, openConnected, PHONE, shot } from './browserHarness';

// Chromium cannot subscribe here (its vendor's push service is unreachable), so the device
// subscribes with the local push service's endpoint, as a phone would with its own, and what
// that service received (decrypted, VAPID-checked) is handed to the page's service worker by
// the DevTools protocol (ServiceWorker.deliverPushMessage), as the browser would.

interface Shown {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
  readonly actions: string[];
}

describe('push notifications in the service worker (Chromium)', () => {
  let browser: Browser;
  let h: TestHost;
  let service: LocalPushService;

  beforeAll(async () => {
    assertWebBuilt();
    service = await startLocalPushService();
    [browser, h] = await Promise.all([
      launchBrowser(),
      startTestHost({ echoDelayMs: 5, push: { endpointPolicy: { unsafeAllowLoopbackForTests: true } } }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close(true);
    await service?.close();
  });

  async function pairAndSubscribe(name: string): Promise<LocalSubscription> {
    const paired = await fetch(`${h.url}/api/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: TEST_CODE, name }),
    });
    const { credential } = (await paired.json()) as { credential: string };
    const subscription = await service.subscribe(h.host.push!.vapid.publicKey);
    const response = await fetch(`${h.url}/api/action`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        action: 'subscribePush',
        subscription: { endpoint: subscription.endpoint, keys: subscription.keys },
        choices: { approvals: true, replies: true },
      }),
    });
    expect(response.status).toBe(200);
    return subscription;
  }

  async function nthPush(
    subscription: LocalSubscription,
    n: number,
  ): Promise<{ text: string; payload: PushPayload }> {
    const text = await waitFor(async () => (await service.messages(subscription))[n - 1]);
    return { text, payload: pushPayloadSchema.parse(JSON.parse(text)) };
  }

  async function registrationId(cdp: CDPSession): Promise<string> {
    const found = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const active = registrations.find((r) => !r.isDeleted);
        if (active) resolve(active.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    return found;
  }

  // Page- and worker-side JavaScript as text: the tests' compiler has no DOM library.
  const shown = async (page: Page): Promise<Shown[]> =>
    (await page.evaluate(`navigator.serviceWorker.ready
      .then((registration) => registration.getNotifications())
      .then((list) => list.map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        actions: (n.actions || []).map((a) => a.action),
      })))`)) as Shown[];

  /** What a tap does, dispatched in the worker (no notification can be clicked headless). */
  const tap = (worker: Worker, tag: string, action: string) =>
    worker.evaluate(`self.registration.getNotifications({ tag: ${JSON.stringify(tag)} }).then(([notification]) => {
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification, action: ${JSON.stringify(action)} }));
    })`);

  it('shows an approval with Allow and Deny, decides with its token from Allow, then shows what happened', async () => {
    const { page, context, problems } = await openConnected(browser, h, PHONE);
    await context.grantPermissions(['notifications'], { origin: h.url });
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const cdp = await context.newCDPSession(page);
    const registration = await registrationId(cdp);
    const phone = await pairAndSubscribe('Pixel 7');

    await postAction(h, {
      action: 'send',
      text: '/tool write_file {"path":"from-the-pocket.md","content":"secret body"}',
      ...guardOf(await getState(h)),
    });
    const { text, payload } = await nthPush(phone, 1);
    if (payload.kind !== 'approval') throw new Error(`pushed ${payload.kind}`);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: h.url,
      registrationId: registration,
      data: text,
    });
    const [notification] = await waitFor(async () => {
      const list = await shown(page);
      return list.length > 0 ? list : undefined;
    });
    expect(notification).toEqual({
      title: 'Approval waiting',
      body: expect.stringMatching(/^write_file wants to: .*from-the-pocket\.md/),
      tag: payload.tag,
      actions: ['allow', 'deny'],
    });
    expect(notification?.body).not.toContain('secret body');

    await tap(worker, payload.tag, 'allow');
    const decided = await waitFor(async () => {
      const s = await getState(h);
      return s.conversations.messages.find((m) => m.role === 'tool')?.tool?.decided;
    });
    expect(decided).toMatchObject({ decision: 'allow', by: { kind: 'device', name: 'Pixel 7' } });

    // The host's replacement, delivered like the first: the same tag, now what happened.
    const answered = await nthPush(phone, 2);
    expect(answered.payload.kind).toBe('answered');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: h.url,
      registrationId: registration,
      data: answered.text,
    });
    const replaced = await waitFor(async () => {
      const list = await shown(page);
      return list.find((n) => n.tag === payload.tag && n.title.startsWith('Allowed on Pixel 7 at'))
        ? list
        : undefined;
    });
    expect(replaced.filter((n) => n.tag === payload.tag)).toHaveLength(1);

    // A stale notification (its token spent): Deny changes nothing and opens the app at it.
    await page.evaluate(
      "window.opened = []; navigator.serviceWorker.addEventListener('message', (e) => window.opened.push(e.data))",
    );
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: h.url,
      registrationId: registration,
      data: text,
    });
    await waitFor(async () =>
      (await shown(page)).some((n) => n.title === 'Approval waiting') ? true : undefined,
    );
    await tap(worker, payload.tag, 'deny');
    const opened = await waitFor(async () => {
      const messages = (await page.evaluate('window.opened')) as unknown[];
      return messages.length > 0 ? messages : undefined;
    });
    expect(opened).toEqual([
      { type: 'webbridge:open', approval: payload.approvalId, conversation: payload.conversationId },
    ]);
    expect(
      (await getState(h)).conversations.messages.find((m) => m.role === 'tool')?.tool?.decided?.decision,
    ).toBe('allow');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a tap on an approval opens the app at it: its conversation, its card', async () => {
    const { page, context, problems } = await openConnected(browser, h, PHONE);
    await context.grantPermissions(['notifications'], { origin: h.url });
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const cdp = await context.newCDPSession(page);
    const registration = await registrationId(cdp);
    const tablet = await pairAndSubscribe('iPad');

    // An approval waits in a new conversation; the page is then moved back to another one.
    const first = await getState(h);
    await postAction(h, { action: 'newConversation' });
    await postAction(h, {
      action: 'send',
      text: '/tool write_file {"path":"elsewhere.md","content":"x"}',
      ...guardOf(await getState(h)),
    });
    const { text, payload } = await nthPush(tablet, 1);
    if (payload.kind !== 'approval') throw new Error(`pushed ${payload.kind}`);
    await postAction(h, { action: 'selectConversation', conversationId: first.conversationId });
    await waitFor(async () =>
      (await getState(h)).conversationId === first.conversationId ? true : undefined,
    );

    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: h.url,
      registrationId: registration,
      data: text,
    });
    await waitFor(async () => ((await shown(page)).some((n) => n.tag === payload.tag) ? true : undefined));
    await tap(worker, payload.tag, '');
    const card = page.locator(`.message [data-approval-id="${payload.approvalId}"]`);
    await card.waitFor();
    expect((await getState(h)).conversationId).toBe(payload.conversationId);
    await shot(page, 'push-opened-at-approval');
    expect(problems).toEqual([]);
    await context.close();
  });
});
