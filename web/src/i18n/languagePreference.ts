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
