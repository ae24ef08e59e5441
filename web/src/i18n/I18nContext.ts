import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { en } from './catalogues/en';
import { createFormatters, type Formatters } from './formatters';
import { type Language, textDirection } from './languages';
import { createTranslator, type Translate } from './translate';

/** The language the page speaks and what it needs to speak it. */
export interface I18n {
  readonly language: Language;
  readonly dir: 'ltr' | 'rtl';
  /** The message for a key, placeholders filled. */
  readonly t: Translate;
  /** Dates and numbers in the language. */
  readonly format: Formatters;
  /** The host's language (/api/locale), the page's unless the person chose another. */
  readonly hostLanguage: Language;
  /** The person's choice in this browser; null follows the host. */
  readonly chosenLanguage: Language | null;
  /** Chooses a language (kept in this browser), or null to follow the host again. */
  readonly chooseLanguage: (language: Language | null) => void;
}

/** The English page, used until another catalogue has loaded. */
const ENGLISH: I18n = {
  language: 'en',
  dir: textDirection('en'),
  t: createTranslator(en, 'en'),
  format: createFormatters('en'),
  hostLanguage: 'en',
  chosenLanguage: null,
  chooseLanguage: () => {},
};

/** The language in use, provided by the app. */
export const I18nContext = createContext<I18n>(ENGLISH);

/**
 * The language in use.
 *
 * @example const { t, format } = useI18n(); t('connect'); format.number(1234)
 */
export function useI18n(): I18n {
  return useContext(I18nContext);
}

/** The translator alone: `const t = useT(); t('send')`. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}
