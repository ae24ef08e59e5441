import { describe, expect, it } from 'vitest';
import { en } from './catalogues/en';
import { LANGUAGES } from './languages';
import { createTranslator } from './translate';

describe('createTranslator', () => {
  // Issue 29: the sidebar's "Tools (3)" made the page's first Intl.NumberFormat (ICU's data
  // loaded: 104-119 ms of a slow phone's opening at 6x), though a count below 1,000 reads as
  // its plain digits in every language but Arabic.
  it('writes a small count without making an Intl formatter, as Intl writes it', () => {
    const real = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = new Proxy(real, {
      construct(target, args) {
        made++;
        return Reflect.construct(target, args);
      },
    });
    try {
      const t = createTranslator(en, 'en');
      expect(t('tools', { count: 3 })).toBe(en.tools.replace('{count}', '3'));
      expect(made).toBe(0);
    } finally {
      Intl.NumberFormat = real;
    }
    for (const language of LANGUAGES) {
      const intl = new Intl.NumberFormat(language);
      const translate = createTranslator({ tools: '{count}' }, language);
      for (const n of [0, 1, 7, 42, 999, 1000, 1234, 2.5, -3])
        expect(translate('tools', { count: n }), `${language} ${n}`).toBe(intl.format(n));
    }
  });
});
