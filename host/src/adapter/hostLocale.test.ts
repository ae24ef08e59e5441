import { CONNECTION_STRINGS, localeSchema } from '@webbridge/contract';
import { describe, expect, it } from 'vitest';
import { CONNECTION_TRANSLATIONS, HOST_LANGUAGES } from './connectionStrings';
import { hostLocale } from './hostLocale';

describe('hostLocale', () => {
  it('is English by default, with the contract strings', () => {
    const locale = localeSchema.parse(hostLocale());
    expect(locale.language).toBe('en');
    expect(locale.strings).toEqual(CONNECTION_STRINGS);
  });

  it('serves the closest host language and its strings', () => {
    expect(hostLocale('de').strings.connect).toBe('Verbinden');
    expect(hostLocale('de-AT').language).toBe('de');
    expect(hostLocale('zh_CN').language).toBe('zh-CN');
    expect(hostLocale('ar').strings.reload).toBe('إعادة التحميل');
    expect(hostLocale('xx').language).toBe('en');
  });

  it('translates every connection string into every host language', () => {
    for (const language of HOST_LANGUAGES) {
      const strings = CONNECTION_TRANSLATIONS[language];
      expect(Object.keys(strings).sort()).toEqual(Object.keys(CONNECTION_STRINGS).sort());
      for (const value of Object.values(strings)) expect(value.trim()).not.toBe('');
    }
  });
});
