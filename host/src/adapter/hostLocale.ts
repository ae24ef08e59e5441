import { type Locale, PROTOCOL_VERSION } from '@webbridge/contract';
import { CONNECTION_TRANSLATIONS, matchHostLanguage } from './connectionStrings';

/**
 * The public locale document of the reference host: its language (the supported one closest
 * to `language`, else English) and the connection page's strings in it. Nothing here may
 * describe the controller's state.
 *
 * @param language a BCP 47 tag such as `de` or `pt-BR` @default 'en'
 * @example hostLocale('de-AT').language // 'de'
 */
export function hostLocale(language = 'en'): Locale {
  const matched = matchHostLanguage(language);
  // One object per language: the bridge may then reuse what it built from it (its JSON).
  let locale = documents.get(matched);
  if (!locale) {
    locale = Object.freeze({
      language: matched,
      strings: Object.freeze({ ...CONNECTION_TRANSLATIONS[matched] }),
      protocol: PROTOCOL_VERSION,
    });
    documents.set(matched, locale);
  }
  return locale;
}

const documents = new Map<string, Locale>();
