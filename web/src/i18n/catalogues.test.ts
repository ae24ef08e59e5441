import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Catalogue, MessageKey } from './catalogue';
import { en } from './catalogues/en';
import { LANGUAGES } from './languages';
import { loadCatalogue } from './loadCatalogue';
import { createTranslator } from './translate';

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('catalogues', () => {
  const english = Object.keys(en).sort();

  it.each(LANGUAGES.filter((language) => language !== 'en'))(
    '%s has every English key and no other',
    async (language) => {
      const catalogue: Catalogue = await loadCatalogue(language);
      expect(Object.keys(catalogue).sort()).toEqual(english);
    },
  );

  it.each(LANGUAGES)('%s fills every message, with the same placeholders as English', async (language) => {
    const catalogue = await loadCatalogue(language);
    for (const key of english as (keyof Catalogue)[]) {
      const message = catalogue[key];
      expect(message.trim(), `${language}.${key}`).not.toBe('');
      expect(placeholders(message), `${language}.${key}`).toEqual(placeholders(en[key]));
    }
  });

  it('is checked by the compiler: t() takes only keys, a catalogue needs every key', () => {
    const t = createTranslator(en, 'en');
    // @ts-expect-error: not a key of the English catalogue
    expect(t('noSuchKey')).toBeUndefined();
    // @ts-expect-error: a catalogue with keys missing is not a Catalogue
    const partial: Catalogue = { title: 'webbridge' };
    expect(partial.title).toBe('webbridge');
    expectTypeOf<MessageKey>().toEqualTypeOf<keyof typeof en>();
    expectTypeOf(t).parameter(0).toEqualTypeOf<MessageKey>();
  });

  it('translates: most messages of each language differ from the English ones', async () => {
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      const catalogue = await loadCatalogue(language);
      const same = english.filter((key) => catalogue[key as keyof Catalogue] === en[key as keyof Catalogue]);
      // Brand names, "{index}/{count}" and the like stay as they are; nothing else should.
      expect(same.length / english.length, `${language}: ${same.join(', ')}`).toBeLessThan(0.1);
    }
  });
});
