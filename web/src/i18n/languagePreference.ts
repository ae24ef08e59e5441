import { isLanguage, type Language } from './languages';

const KEY = 'webbridge.language';

/** The language a person chose in this browser, or null to follow the host. */
export function readLanguagePreference(storage: Pick<Storage, 'getItem'> | undefined): Language | null {
  try {
    const value = storage?.getItem(KEY) ?? null;
    return value !== null && isLanguage(value) ? value : null;
  } catch {
    // Storage can throw (disabled cookies, a sandboxed frame): follow the host.
    return null;
  }
}

/** Keeps (or, with null, forgets) the person's language in this browser. */
export function writeLanguagePreference(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  language: Language | null,
): void {
  try {
    if (language === null) storage?.removeItem(KEY);
    else storage?.setItem(KEY, language);
  } catch {
    // Not kept: the choice still holds until the page is closed.
  }
}

const HOST_KEY = 'webbridge.hostLanguage';

/**
 * The host's language as last seen in this browser: the page starts in it, fetching that
 * catalogue at once instead of after /api/locale, so a returning visitor barely sees English.
 */
export function readLastHostLanguage(storage: Pick<Storage, 'getItem'> | undefined): Language | null {
  try {
    const value = storage?.getItem(HOST_KEY) ?? null;
    return value !== null && isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** Remembers the host's language for the next visit. */
export function writeLastHostLanguage(
  storage: Pick<Storage, 'setItem'> | undefined,
  language: Language,
): void {
  try {
    storage?.setItem(HOST_KEY, language);
  } catch {
    // Not remembered: the next visit starts in English until the host answers.
  }
}
