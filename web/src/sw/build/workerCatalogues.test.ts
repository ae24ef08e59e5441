import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../i18n/languages';
import { loadCatalogue } from '../../i18n/loadCatalogue';
import { WORKER_KEYS } from '../workerKeys';
import { workerCatalogues } from './workerCatalogues';

describe('workerCatalogues', () => {
  const built = workerCatalogues();

  it('has every language the page speaks, and no other', () => {
    expect(Object.keys(built).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES)("%s: the worker's keys only, each the catalogue's own words", async (language) => {
    const catalogue = await loadCatalogue(language);
    const strings = built[language];
    expect(Object.keys(strings).sort()).toEqual([...WORKER_KEYS].sort());
    for (const key of WORKER_KEYS) expect(strings[key], `${language}.${key}`).toBe(catalogue[key]);
  });

  it('is a small part of each catalogue (the worker carries these, not the catalogues)', async () => {
    for (const language of LANGUAGES) {
      const whole = JSON.stringify(await loadCatalogue(language)).length;
      expect(JSON.stringify(built[language]).length, language).toBeLessThan(whole / 5);
    }
  });
});
