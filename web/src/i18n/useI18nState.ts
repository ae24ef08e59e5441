import { CONNECTION_STRINGS, type ConnectionStringKey, createBridgeClient } from '@webbridge/client-sdk';
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { Catalogue } from './catalogue';
import { en } from './catalogues/en';
import { createFormatters } from './formatters';
import type { I18n } from './I18nContext';
import {
  readLanguagePreference,
  readLastHostLanguage,
  writeLanguagePreference,
  writeLastHostLanguage,
} from './languagePreference';
import { type Language, matchLanguage, textDirection } from './languages';
import { loadCatalogue } from './loadCatalogue';
import { createTranslator } from './translate';
import { withHostStrings } from './withHostStrings';

interface HostLocale {
  readonly language: Language;
  readonly strings: Readonly<Record<string, string>>;
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function build(
  language: Language,
  catalogue: Catalogue,
  host: HostLocale,
  chosenLanguage: Language | null,
  chooseLanguage: (language: Language | null) => void,
): I18n {
  const words = language === host.language ? withHostStrings(catalogue, host.strings) : catalogue;
  return {
    language,
    dir: textDirection(language),
    t: createTranslator(words, language),
    format: createFormatters(language),
    hostLanguage: host.language,
    chosenLanguage,
    chooseLanguage,
  };
}

/** Whether two states show the same: same languages, same wording of the host's strings. */
function sameWords(a: I18n, b: I18n): boolean {
  if (a.language !== b.language || a.hostLanguage !== b.hostLanguage || a.chosenLanguage !== b.chosenLanguage)
    return false;
  return (Object.keys(CONNECTION_STRINGS) as ConnectionStringKey[]).every((key) => a.t(key) === b.t(key));
}

/**
 * The page's language: the person's choice kept in this browser, else the host's (from
 * /api/locale), else English. Loads the language's catalogue (English is built in) and sets
 * `lang` and `dir` on the document, so Arabic lays out right to left.
 */
export function useI18nState(baseUrl: string): I18n {
  const [host, setHost] = useState<HostLocale>(() => ({
    language: readLastHostLanguage(storage()) ?? 'en',
    strings: {},
  }));
  const [chosen, setChosen] = useState<Language | null>(() => readLanguagePreference(storage()));
  const chooseLanguage = useCallback((language: Language | null) => {
    writeLanguagePreference(storage(), language);
    setChosen(language);
  }, []);
  const language = chosen ?? host.language;
  const [i18n, setI18n] = useState<I18n>(() => build('en', en, host, chosen, chooseLanguage));

  useEffect(() => {
    const controller = new AbortController();
    createBridgeClient({ baseUrl, accessCode: '' })
      .locale({ signal: controller.signal })
      .then((locale) => {
        const language = matchLanguage(locale.language);
        writeLastHostLanguage(storage(), language);
        setHost({ language, strings: locale.strings });
      })
      .catch(() => {
        // English, built in: the page works without the host's locale.
      });
    return () => controller.abort();
  }, [baseUrl]);

  useEffect(() => {
    let current = true;
    loadCatalogue(language).then(
      (catalogue) => {
        if (!current) return;
        const next = build(language, catalogue, host, chosen, chooseLanguage);
        // The host's answer usually changes nothing the page shows; keeping the same value
        // then spares every component (a long conversation's messages too) a render.
        setI18n((previous) => (sameWords(previous, next) ? previous : next));
      },
      () => {
        // The chunk did not arrive (the host went away): stay in the language shown.
      },
    );
    return () => {
      current = false;
    };
  }, [language, host, chosen, chooseLanguage]);

  useEffect(() => {
    document.documentElement.lang = i18n.language;
    document.documentElement.dir = i18n.dir;
  }, [i18n]);

  return i18n;
}
