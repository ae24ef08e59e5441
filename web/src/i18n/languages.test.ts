import { describe, expect, it } from 'vitest';
import { createFormatters } from './formatters';
import { matchLanguage, textDirection } from './languages';
import { createTranslator } from './translate';

describe('languages', () => {
  it('matches tags to the closest supported language', () => {
    expect(matchLanguage('de')).toBe('de');
    expect(matchLanguage('de-AT')).toBe('de');
    expect(matchLanguage('pt_BR')).toBe('pt-BR');
    expect(matchLanguage('pt-PT')).toBe('pt-BR');
    expect(matchLanguage('zh-cn')).toBe('zh-CN');
    expect(matchLanguage('ar-EG')).toBe('ar');
    expect(matchLanguage('fi')).toBe('en');
    expect(matchLanguage('')).toBe('en');
  });

  it('lays Arabic out right to left and the others left to right', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(textDirection('he' as never)).toBe('ltr');
    expect(textDirection('ja')).toBe('ltr');
  });

  it('fills placeholders, numbers in the language', () => {
    const t = createTranslator({ tools: 'Werkzeuge ({count})' } as never, 'de');
    expect(t('tools' as never, { count: 1234 })).toBe('Werkzeuge (1.234)');
    expect(t('tools' as never)).toBe('Werkzeuge ({count})');
  });

  it('writes sizes and dates the language’s way', () => {
    expect(createFormatters('en').size(1536)).toBe('1.5 kB');
    expect(createFormatters('de').size(1536)).toBe('1,5 kB');
    expect(createFormatters('en').size(12 * 1024 * 1024)).toBe('12 MB');
    expect(createFormatters('en').size(512)).toBe('512 byte');
    const day = Date.UTC(2026, 10, 23, 12);
    expect(createFormatters('de').date(day)).toBe('23.11.2026');
    expect(createFormatters('en').date(day)).toBe('Nov 23, 2026');
  });
});
