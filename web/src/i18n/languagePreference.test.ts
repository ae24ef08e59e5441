import { describe, expect, it } from 'vitest';
import {
  readLanguagePreference,
  readLastHostLanguage,
  writeLanguagePreference,
  writeLastHostLanguage,
} from './languagePreference';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('languagePreference', () => {
  it('keeps a chosen language, forgets it with null, ignores what is not a language', () => {
    const storage = memoryStorage();
    expect(readLanguagePreference(storage)).toBeNull();
    writeLanguagePreference(storage, 'ja');
    expect(readLanguagePreference(storage)).toBe('ja');
    writeLanguagePreference(storage, null);
    expect(readLanguagePreference(storage)).toBeNull();
    storage.setItem('webbridge.language', 'klingon');
    expect(readLanguagePreference(storage)).toBeNull();
  });

  it('remembers the host language apart from the choice', () => {
    const storage = memoryStorage();
    writeLastHostLanguage(storage, 'ar');
    expect(readLastHostLanguage(storage)).toBe('ar');
    expect(readLanguagePreference(storage)).toBeNull();
  });

  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(readLanguagePreference(broken)).toBeNull();
    expect(() => writeLanguagePreference(broken, 'de')).not.toThrow();
    expect(readLastHostLanguage(undefined)).toBeNull();
  });
});
