import {
  type BridgeClient,
  BridgeClientError,
  createBridgeClient,
  createStore,
  type Destination,
  type EventConnection,
  type SensitiveActionName,
  type SensitiveOutcome,
  type Store,
} from '@webbridge/client-sdk';
import { inEnglish, type Phrase } from '../i18n/phrase';
import { createMediaUrls, type MediaUrls } from './mediaUrls';
import { type Observable, observable } from './observable';
import { createUploads, type Uploads } from './uploads';

/** Any action the page can post (derived from the SDK client). */
type AnyAction = Parameters<BridgeClient['action']>[0];

/** A short message for the person: what failed, or that nothing happened after a 409. */
interface Notice {
  readonly id: number;
  /** The notice in English, or the host's own words (a problem's detail). */
  readonly text: string;
  /** The notice in the page's words, when it is one of them: shown in the page's language. */
  readonly phrase?: Phrase;
  readonly tone: 'error' | 'info';
}

/** The outcome of {@link Session.send}. */
export type SendOutcome =
  | { readonly kind: 'sent' }
  /** 409: nothing was sent; the message would now go to `destination` if the person agrees. */
  | { readonly kind: 'changed'; readonly destination: Destination }
  | { readonly kind: 'failed' };

/** One connected page: the SDK client, its live store and the page's own small stores. */
export interface Session {
  readonly client: BridgeClient;
  readonly store: Store;
  readonly uploads: Uploads;
  readonly media: MediaUrls;
  readonly notice: Observable<Notice | null>;
  /**
   * Sends a message with the given pending attachments, bound to `to`: the destination the
   * page shows (the rendered state, or the one a confirmation names), else the store's. If the
   * host is no longer there, nothing is sent and a 409 is returned, never retried: only the
   * person can decide to send it elsewhere.
   */
  send(text: string, attachmentIds: readonly string[], to?: Destination): Promise<SendOutcome>;
  /** Runs a session-sensitive action; a 409 or a failure becomes a notice. Returns success. */
  sensitive<N extends SensitiveActionName>(
    run: (client: BridgeClient) => Promise<SensitiveOutcome<N>>,
  ): Promise<boolean>;
  /**
   * Posts a plain action; a failure becomes a notice. Returns success. `refused`, when given,
   * sees a refusal first and may handle it (returning true): then the page's own words win.
   */
  act(action: AnyAction, refused?: (error: BridgeClientError) => boolean): Promise<boolean>;
  /** Shows a notice. */
  say(text: string, tone?: Notice['tone']): void;
  /** Opens the event stream. */
  start(): void;
  /** Closes the event stream and aborts nothing else. */
  close(): void;
}

/** Options of {@link createSession}. */
export interface SessionOptions {
  readonly baseUrl: string;
  readonly accessCode: string;
  /** For tests; uploads still use XMLHttpRequest where it exists, for their progress. */
  readonly fetch?: typeof fetch;
  /** Reconnection delays. @default { baseMs: 300, maxMs: 4000 } */
  readonly backoff?: { baseMs?: number; maxMs?: number };
  /** @default the SDK's (15000) */
  readonly heartbeatMs?: number;
}

/**
 * Creates the page's session over the SDK client.
 *
 * @example
 * ```ts
 * const session = createSession({ baseUrl: location.origin, accessCode: code });
 * session.start();
 * const outcome = await session.send('Hello', []);
 * ```
 */
export function createSession(options: SessionOptions): Session {
  const store = createStore();
  const client = createBridgeClient({
    baseUrl: options.baseUrl,
    accessCode: options.accessCode,
    store,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const notice = observable<Notice | null>(null);
  let noticeId = 0;
  const say = (text: string, tone: Notice['tone'] = 'error') => notice.set({ id: ++noticeId, text, tone });
  const sayPhrase = (phrase: Phrase, tone: Notice['tone'] = 'error') =>
    notice.set({ id: ++noticeId, text: inEnglish(phrase), phrase, tone });
  const fail = (error: unknown) => {
    const described = describeError(error);
    if (typeof described === 'string') say(described);
    else sayPhrase(described);
  };
  let connection: EventConnection | undefined;

  const session: Session = {
    client,
    store,
    notice,
    say,
    uploads: createUploads((file, name, o) => client.upload(file, name, o)),
    media: createMediaUrls(
      (ref) => client.mediaUrl(ref),
      async (attachmentId) => (await client.action({ action: 'refreshMedia', attachmentId })).media,
    ),
    async send(text, attachmentIds, to) {
      try {
        const outcome = await client.send(text, [...attachmentIds], to === undefined ? {} : { to });
        if (outcome.kind === 'session_changed') return { kind: 'changed', destination: outcome.destination };
        return { kind: 'sent' };
      } catch (error) {
        fail(error);
        return { kind: 'failed' };
      }
    },
    async sensitive(run) {
      try {
        const outcome = await run(client);
        if (outcome.kind === 'done') return true;
        const where = outcome.destination.title;
        sayPhrase(where ? { key: 'movedOn', params: { where } } : { key: 'movedOnUntitled' }, 'info');
        return false;
      } catch (error) {
        fail(error);
        return false;
      }
    },
    async act(action, refused) {
      try {
        await client.action(action);
        return true;
      } catch (error) {
        if (!(error instanceof BridgeClientError && refused?.(error))) fail(error);
        return false;
      }
    },
    start() {
      connection ??= client.connect({
        backoff: options.backoff ?? { baseMs: 300, maxMs: 4000 },
        ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      });
    },
    close() {
      connection?.close();
      connection = undefined;
    },
  };
  return session;
}

/** A sentence for the person from any failure of an action: the page's phrase, or the host's detail. */
function describeError(error: unknown): Phrase | string {
  if (!(error instanceof BridgeClientError)) return { key: 'errorGeneric' };
  switch (error.code) {
    case 'network':
      return { key: 'errorNetwork' };
    case 'unauthorized':
      return { key: 'errorUnauthorized' };
    case 'rate_limited':
      return { key: 'errorRateLimited' };
    case 'payload_too_large':
      return { key: 'errorTooLarge' };
    default:
      return error.detail || { key: 'errorGeneric' };
  }
}
