import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import webpush from 'web-push';
import type { VapidKeys } from './vapidKeys';

/** Where one push goes: a subscription's endpoint and keys. */
export interface PushTarget {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
}

/** How one push request is made. */
export interface PushRequestOptions {
  readonly vapid: VapidKeys;
  /** The VAPID `sub` claim: a contact for the push service's operator. */
  readonly subject: string;
  /** Seconds the push service keeps the message for an offline device. */
  readonly ttl: number;
  readonly urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** RFC 8030 topic: an undelivered message with the same topic is replaced by this one. */
  readonly topic?: string;
  /** Resolves the endpoint's name for the socket, refusing non-public answers. */
  readonly lookup: LookupFunction;
  readonly timeoutMs: number;
}

/**
 * What a push service answered: `sent` (2xx), `gone` (404/410: the subscription is dead and is
 * removed), `retry` (no answer, 429 or 5xx: worth trying again later), `refused` (anything
 * else, a redirect included: redirects are never followed, a push service does not send them).
 */
export type PushResult =
  | { readonly kind: 'sent'; readonly status: number }
  | { readonly kind: 'gone'; readonly status: number }
  | { readonly kind: 'retry'; readonly status: number | null; readonly reason: string }
  | { readonly kind: 'refused'; readonly status: number; readonly reason: string };

/**
 * Encrypts `payload` for the target (RFC 8291, aes128gcm), signs the request (VAPID, RFC 8292)
 * with web-push, and POSTs it (RFC 8030) over a socket that may connect only to a public
 * address (`lookup`). Never throws; never logs; the payload leaves this function only encrypted.
 */
export function sendPush(
  target: PushTarget,
  payload: string,
  options: PushRequestOptions,
): Promise<PushResult> {
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      payload,
      {
        vapidDetails: {
          subject: options.subject,
          publicKey: options.vapid.publicKey,
          privateKey: options.vapid.privateKey,
        },
        TTL: options.ttl,
        urgency: options.urgency,
        ...(options.topic === undefined ? {} : { topic: options.topic }),
        contentEncoding: 'aes128gcm',
      },
    );
  } catch {
    // Keys a browser would never hand out: nothing can be sent to this subscription.
    return Promise.resolve({ kind: 'refused', status: 0, reason: 'the subscription keys are not usable' });
  }
  const url = new URL(details.endpoint);
  const client = url.protocol === 'http:' ? http : https;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: details.headers as http.OutgoingHttpHeaders,
        lookup: options.lookup,
        timeout: options.timeoutMs,
        // No pooled socket: each push connects (and resolves) afresh through `lookup`.
        agent: false,
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve({ kind: 'sent', status });
        else if (status === 404 || status === 410) resolve({ kind: 'gone', status });
        else if (status === 429 || status >= 500)
          resolve({ kind: 'retry', status, reason: `answered ${status}` });
        else resolve({ kind: 'refused', status, reason: `answered ${status}` });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => {
      // A refused address (our lookup) is a verdict, not a hiccup: not retried.
      const refusedAddress = (error as { code?: string }).code === 'invalid_request';
      if (refusedAddress)
        resolve({ kind: 'refused', status: 0, reason: 'the endpoint is not on a public address' });
      else resolve({ kind: 'retry', status: null, reason: error.message });
    });
    request.end(details.body);
  });
}
