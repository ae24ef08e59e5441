import {
  type Action,
  type ActionResultOf,
  ProtocolError,
  type PushChoices,
  type PushSubscriptionJson,
} from '@webbridge/contract';
import type { ActionOrigin } from '@webbridge/server';
import { deviceDecider } from '../controller/approvalDecision';
import type { ChatController } from '../controller/ChatController';
import { ApprovalTokens } from './ApprovalTokens';
import { checkEndpoint, type EndpointPolicy } from './checkEndpoint';
import { Presence } from './Presence';
import { PushNotifier } from './PushNotifier';
import { PushQueue, type PushReport } from './PushQueue';
import { publicLookup, type ResolveAll, resolvePublic, systemResolveAll } from './resolvePublic';
import { loadVapidKeys, type VapidKeys } from './vapidKeys';

/** Options of {@link HostPush}. */
export interface HostPushOptions {
  /** Where the VAPID keys are kept (made on first use, 0600). */
  readonly dataDir: string;
  /**
   * The VAPID `sub` claim, a contact for the push services' operators.
   * @default 'mailto:webbridge@localhost.invalid'
   */
  readonly subject?: string;
  /**
   * Where push endpoints may be beyond public `https:` on 443 (see {@link EndpointPolicy}): a
   * test's loopback push service, a self-hosted push service's port. None by default.
   */
  readonly endpointPolicy?: EndpointPolicy;
  /** The resolver endpoint names are checked with. @default the system's (getaddrinfo) */
  readonly resolveAll?: ResolveAll;
  /** Pauses before each retry of an unreachable push service (see PushQueue). */
  readonly retryDelaysMs?: readonly number[];
  /** A push request that gets no answer in this long is retried. @default 10000 */
  readonly timeoutMs?: number;
  /**
   * Whether a reply's push carries its conversation's title (the first line of the first
   * message, through the push service to the lock screen). Off: "Reply finished" alone.
   * `webbridge serve --push-reply-titles` turns it on.
   * @default false
   */
  readonly replyTitles?: boolean;
  /** Told how each push ended: device, result, attempts (never the payload). */
  readonly onReport?: (report: PushReport) => void;
}

/** Refusal for push actions sent without a paired device (the access code itself). */
function needsDevice(): ProtocolError {
  return new ProtocolError(
    'not_applicable',
    'Push needs a paired device: open the host’s pairing link or QR code on this browser first (the access code alone names no device to notify).',
  );
}

/**
 * Web Push for the reference host: the devices' subscriptions (one per paired device, opt-in,
 * in SQLite), the VAPID keys, who is on screen, the approval tokens, and the notifier that
 * pushes what changed. The action handlers and the token route call in here.
 */
export class HostPush {
  readonly vapid: VapidKeys;
  readonly tokens = new ApprovalTokens();
  readonly presence = new Presence();
  private readonly controller: ChatController;
  private readonly queue: PushQueue;
  private readonly notifier: PushNotifier;
  private readonly policy: EndpointPolicy;
  private readonly resolveAll: ResolveAll;

  constructor(controller: ChatController, options: HostPushOptions) {
    this.controller = controller;
    this.vapid = loadVapidKeys(options.dataDir);
    this.policy = options.endpointPolicy ?? {};
    this.resolveAll = options.resolveAll ?? systemResolveAll;
    this.queue = new PushQueue({
      request: {
        vapid: this.vapid,
        subject: options.subject ?? 'mailto:webbridge@localhost.invalid',
        lookup: publicLookup(this.resolveAll, this.policy),
        timeoutMs: options.timeoutMs ?? 10_000,
      },
      ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
      onGone: (subscription) => {
        controller
          .runCommitted(() =>
            controller.pushSubscriptions.remove(subscription.deviceId, subscription.endpoint),
          )
          .catch(() => {
            // The controller closed meanwhile: the subscription goes with the next "gone".
          });
      },
      ...(options.onReport === undefined ? {} : { onReport: options.onReport }),
    });
    this.notifier = new PushNotifier(controller, this.queue, this.tokens, this.presence, {
      endpointAllowed: (endpoint) => {
        try {
          checkEndpoint(endpoint, this.policy);
          return true;
        } catch {
          // Kept before the checks grew stricter (a port, an address class): never pushed to.
          return false;
        }
      },
      replyTitles: options.replyTitles === true,
    });
  }

  /** `pushStatus`: the public key, and this device's choices while it is subscribed. */
  status(origin: ActionOrigin | undefined): ActionResultOf<'pushStatus'> {
    const device = origin?.device;
    const row = device === undefined ? undefined : this.controller.pushSubscriptions.of(device.id);
    return {
      publicKey: this.vapid.publicKey,
      subscribed: row === undefined ? null : { approvals: row.approvals, replies: row.replies },
      paired: device !== undefined,
    };
  }

  /** `subscribePush`: keeps this device's subscription (its endpoint checked before, see {@link checkAction}). */
  subscribe(
    origin: ActionOrigin | undefined,
    subscription: PushSubscriptionJson,
    choices: PushChoices,
  ): ActionResultOf<'subscribePush'> {
    // Checked again in the task: cheap, and the task must not trust that a check ran before it.
    checkEndpoint(subscription.endpoint, this.policy);
    checkKeys(subscription.keys);
    const device = origin?.device;
    if (device === undefined) throw needsDevice();
    this.controller.pushSubscriptions.put({
      deviceId: device.id,
      deviceName: device.name,
      endpoint: subscription.endpoint,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      approvals: choices.approvals,
      replies: choices.replies,
      createdAt: Date.now(),
    });
    return { subscribed: choices };
  }

  /** `unsubscribePush`: ends this device's subscription (without a device there is none to end). */
  unsubscribe(origin: ActionOrigin | undefined): ActionResultOf<'unsubscribePush'> {
    const device = origin?.device;
    if (device !== undefined) this.controller.pushSubscriptions.remove(device.id);
    return { subscribed: null };
  }

  /** `reportPresence`: a device's page says whether it is on screen (ignored without a device). */
  reportPresence(origin: ActionOrigin | undefined, visible: boolean): ActionResultOf<'reportPresence'> {
    if (origin?.device !== undefined) this.presence.report(origin.device.id, visible);
    return { visible };
  }

  /**
   * The checks of `subscribePush` that take I/O, before its executor task: the endpoint's URL,
   * then its name resolved (every address must be public). Refuses with 400 naming what is wrong.
   */
  checkAction(action: Action, _origin: ActionOrigin): Promise<void> | undefined {
    // A bad endpoint is refused (400) whoever sends it; only then does the device matter (422).
    if (action.action !== 'subscribePush') return undefined;
    let url: URL;
    try {
      url = checkEndpoint(action.subscription.endpoint, this.policy);
    } catch (error) {
      return Promise.reject(error);
    }
    return resolvePublic(url.hostname, this.resolveAll, this.policy).then(() => undefined);
  }

  /** POST /api/push/decide: answers an approval with a token from its push, as the device it was pushed to. */
  decideWithToken(token: string, decision: 'allow' | 'deny'): ActionResultOf<'approve'> {
    const holder = this.tokens.redeem(token);
    if (holder === undefined) {
      throw new ProtocolError(
        'not_found',
        'That approval token is unknown, used, or void (its approval was answered).',
      );
    }
    return this.controller.approvals.approve(
      holder.approvalId,
      decision,
      deviceDecider({ id: holder.deviceId, name: holder.deviceName }),
    );
  }

  /**
   * A device was forgotten: its subscription, its tokens and its presence go. Runs on the
   * executor (the removal is a write).
   */
  forgetDevice(deviceId: string): void {
    this.controller.pushSubscriptions.remove(deviceId);
    this.tokens.voidDevice(deviceId);
    this.presence.forget(deviceId);
  }

  /** Stops watching and cancels retries. */
  close(): void {
    this.notifier.close();
    this.queue.close();
  }
}

/**
 * The subscription's keys as RFC 8291 needs them: a P-256 public key as an uncompressed point
 * (65 bytes, starting 0x04) and a 16-byte secret. Refused here, with a 400 naming the key, rather
 * than when the first push fails to encrypt.
 */
function checkKeys(keys: PushSubscriptionJson['keys']): void {
  const p256dh = Buffer.from(keys.p256dh, 'base64url');
  if (p256dh.length !== 65 || p256dh[0] !== 0x04) {
    throw new ProtocolError(
      'invalid_request',
      'keys.p256dh is not a P-256 public key (65 bytes, base64url).',
    );
  }
  if (Buffer.from(keys.auth, 'base64url').length !== 16) {
    throw new ProtocolError('invalid_request', 'keys.auth is not a 16-byte secret (base64url).');
  }
}
