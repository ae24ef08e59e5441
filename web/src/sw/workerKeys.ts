import type { Catalogue, MessageKey } from '../i18n/catalogue';
import type { Language } from '../i18n/languages';

/**
 * The catalogue keys the service worker speaks. The build takes these, and only these, from
 * each language's catalogue (build/workerCatalogues.ts), so the worker carries a few dozen
 * strings per language instead of every catalogue. A key the worker uses that is not listed
 * here is a type error where it is used.
 */
export const WORKER_KEYS = [
  'notifyApprovalTitle',
  'notifyAskWrite',
  'notifyAskEdit',
  'notifyAskRun',
  'notifyAskUse',
  'allow',
  'deny',
  'decidedAllowDevice',
  'decidedDenyDevice',
  'decidedAllowHost',
  'decidedDenyHost',
  'decidedAllowCode',
  'decidedDenyCode',
  'pushReplyFinishedTitle',
  'pushReplyFailedTitle',
] as const satisfies readonly MessageKey[];

/** A key the service worker speaks. */
export type WorkerKey = (typeof WORKER_KEYS)[number];

/** The worker's part of one language's catalogue. */
export type WorkerStrings = Pick<Catalogue, WorkerKey>;

/** The worker's part of every language's catalogue, as the build puts it into the worker. */
export type WorkerCatalogues = { readonly [L in Language]: WorkerStrings };
