import type { ApprovalAsk } from '@webbridge/contract';
import type { MessageKey } from '../i18n/catalogue';

/**
 * The catalogue's words for what a notification asks ("Write {target}?"), one per verb of
 * {@link ApprovalAsk}. The service worker reads the same keys from the strings the page leaves
 * it (PushSettings.tsx), so a page's notice and a push say the same thing.
 */
export function askKey(verb: ApprovalAsk['verb']): MessageKey {
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
