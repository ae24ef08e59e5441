import { once } from 'node:events';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** A subscription as the local push service hands it out (a browser's `PushSubscription.toJSON()`). */
export interface LocalSubscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
  /** The service's id of the subscription, to read what was pushed to it. */
  readonly clientHash: string;
}

/**
 * A local push service (RFC 8030 endpoint) for tests: web-push-testing's own model and routes,
 * listening on 127.0.0.1 only. It checks each push's VAPID signature (RFC 8292) against the key
 * the subscription was made with and decrypts its body (RFC 8291), so what `messages` returns
 * is what a browser's service worker would have been handed.
 */
export interface LocalPushService {
  readonly url: string;
  /** Subscribes as a browser would, with the host's VAPID public key. */
  subscribe(applicationServerKey: string): Promise<LocalSubscription>;
  /** The decrypted payloads pushed to a subscription so far, oldest first. */
  messages(subscription: LocalSubscription): Promise<string[]>;
  /** Makes the service answer 410 Gone for this subscription from now on. */
  expire(subscription: LocalSubscription): Promise<void>;
  close(): Promise<void>;
}

interface WebPushTestingServer {
  _app: { listen(port: number, host: string): Server };
  setRequestHandlers(): void;
}

/** Starts a {@link LocalPushService} on a free loopback port. */
export async function startLocalPushService(): Promise<LocalPushService> {
  const require = createRequire(import.meta.url);
  // The package's `main` names a file it does not ship; its sources are the API.
  const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as {
    PushApiModel: new () => { notifyUrl: string };
  };
  const ServerClass = require('web-push-testing/src/server.js') as new (
    model: unknown,
    port: number,
  ) => WebPushTestingServer;
  const model = new PushApiModel();
  const server = new ServerClass(model, 0);
  server.setRequestHandlers();
  // Its own startServer listens on every interface and logs; loopback only, quietly, instead.
  const listener = server._app.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const { port } = listener.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  model.notifyUrl = `${url}/notify/`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    const text = await response.text();
    return text === '' || text === 'OK' ? {} : (JSON.parse(text) as { data?: unknown });
  };
  return {
    url,
    async subscribe(applicationServerKey) {
      const { data } = (await post('/subscribe', { applicationServerKey, userVisibleOnly: 'true' })) as {
        data: LocalSubscription;
      };
      return data;
    },
    async messages(subscription) {
      const { data } = (await post('/get-notifications', { clientHash: subscription.clientHash })) as {
        data: { messages: string[] };
      };
      return data.messages;
    },
    async expire(subscription) {
      await post(`/expire-subscription/${subscription.clientHash}`, {});
    },
    close: () =>
      new Promise<void>((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  };
}
