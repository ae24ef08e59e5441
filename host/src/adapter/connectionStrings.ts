import {
  CONNECTION_STRINGS,
  CONNECTION_STRINGS_AR,
  CONNECTION_STRINGS_DE,
  CONNECTION_STRINGS_ES,
  CONNECTION_STRINGS_FR,
  CONNECTION_STRINGS_JA,
  CONNECTION_STRINGS_PT_BR,
  CONNECTION_STRINGS_ZH_CN,
  type ConnectionStringKey,
} from '@webbridge/contract';

/** The languages the reference host translates the connection page into. */
export const HOST_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'zh-CN', 'ja', 'ar'] as const;

/** A language the reference host speaks. */
export type HostLanguage = (typeof HOST_LANGUAGES)[number];

type ConnectionStrings = { readonly [K in ConnectionStringKey]: string };

/**
 * The connection page's strings in each host language. English is the contract's own list; a
 * translation missing a key is a type error. The translations live in contract/, where the web
 * page's catalogues take the same sentences from, so a person's language override works too.
 */
export const CONNECTION_TRANSLATIONS: { readonly [L in HostLanguage]: ConnectionStrings } = {
  en: CONNECTION_STRINGS,
  de: CONNECTION_STRINGS_DE,
  fr: CONNECTION_STRINGS_FR,
  es: CONNECTION_STRINGS_ES,
  'pt-BR': CONNECTION_STRINGS_PT_BR,
  'zh-CN': CONNECTION_STRINGS_ZH_CN,
  ja: CONNECTION_STRINGS_JA,
  ar: CONNECTION_STRINGS_AR,
};

/**
 * The host language closest to a BCP 47 or POSIX tag: an exact match (case-insensitive,
 * `_` read as `-`), else the same primary language (`de-AT` → `de`, `pt-PT` → `pt-BR`), else
 * English.
 *
 * @example matchHostLanguage('zh_CN') // 'zh-CN'
 */
export function matchHostLanguage(tag: string): HostLanguage {
  const wanted = tag.trim().replace(/_/g, '-').toLowerCase();
  const exact = HOST_LANGUAGES.find((language) => language.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split('-')[0];
  return HOST_LANGUAGES.find((language) => language.toLowerCase().split('-')[0] === primary) ?? 'en';
}
