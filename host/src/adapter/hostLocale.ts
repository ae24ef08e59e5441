import { CONNECTION_STRINGS, type Locale, PROTOCOL_VERSION } from '@webbridge/contract';

/**
 * The public locale document of the reference host: the contract's English strings for the
 * connection page. Nothing here may describe the controller's state.
 */
export function hostLocale(): Locale {
  return { language: 'en', strings: { ...CONNECTION_STRINGS }, protocol: PROTOCOL_VERSION };
}
