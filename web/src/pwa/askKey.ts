import type { ApprovalAsk } from '@webbridge/contract';
import type { MessageKey } from '../i18n/catalogue';

/** A phrase that asks about a waiting approval ("Write {target}?"). */
export type AskKey = Extract<
  MessageKey,
  'notifyAskWrite' | 'notifyAskEdit' | 'notifyAskRun' | 'notifyAskUse'
>;

/**
 * The catalogue's words for what a notification asks ("Write {target}?"), one per verb of
 * {@link ApprovalAsk}. The service worker (web/src/sw) says a push's `ask` with the same keys, so
 * a page's notice and a push say the same thing.
 */
export function askKey(verb: ApprovalAsk['verb']): AskKey {
  switch (verb) {
    case 'write':
      return 'notifyAskWrite';
    case 'edit':
      return 'notifyAskEdit';
    case 'run':
      return 'notifyAskRun';
    case 'use':
      return 'notifyAskUse';
    default: {
      const never: never = verb;
      return never;
    }
  }
}
