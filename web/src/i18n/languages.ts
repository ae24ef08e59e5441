/** The languages the page has catalogues for; English is built in, the others load lazily. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'zh-CN', 'ja', 'ar'] as const;

/** A language the page speaks. */
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself, for the language picker. */
export const LANGUAGE_NAMES: { readonly [L in Language]: string } = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  'zh-CN': '简体中文',
  ja: '日本語',
  ar: 'العربية',
};

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set<Language>(['ar']);

/** Whether a language is a supported one. */
export function isLanguage(tag: string): tag is Language {
  return (LANGUAGES as readonly string[]).includes(tag);
}

/**
 * The supported language closest to a BCP 47 tag: an exact match (case-insensitive), else the
 * same primary language (`pt-PT` → `pt-BR`, `zh-TW` → `zh-CN`, `de-AT` → `de`), else English.
 *
 * @example matchLanguage('de-CH') // 'de'
 */
export function matchLanguage(tag: string): Language {
  const wanted = tag.trim().replace(/_/g, '-').toLowerCase();
  const exact = LANGUAGES.find((language) => language.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split('-')[0];
  return LANGUAGES.find((language) => language.toLowerCase().split('-')[0] === primary) ?? 'en';
}

/** The writing direction of a language, for `dir` on the document. */
export function textDirection(language: Language): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}
