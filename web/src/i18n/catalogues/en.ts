import { CONNECTION_STRINGS } from '@webbridge/client-sdk';

/**
 * The page's strings in English: the source of the key set ({@link MessageKey}) and the built-in
 * language. The connection page's strings come from the contract, like the host's. Placeholders
 * are `{name}`.
 */
export const en = {
  ...CONNECTION_STRINGS,
  hostUnreachable: 'The host did not answer ({detail}). Is it running?',
  codeRotated: 'The host changed its access code. Enter the new one.',
  rateLimitedWait: '{message} ({seconds} s)',
};
