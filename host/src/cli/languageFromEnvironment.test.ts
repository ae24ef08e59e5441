import { describe, expect, it } from 'vitest';
import { matchHostLanguage } from '../adapter/connectionStrings';
import { languageFromEnvironment } from './languageFromEnvironment';
import { parseServeArgs } from './parseServeArgs';

describe('languageFromEnvironment', () => {
  it('reads LC_ALL, then LC_MESSAGES, then LANG, skipping empty values', () => {
    expect(languageFromEnvironment({ LC_ALL: 'fr_FR.UTF-8', LC_MESSAGES: 'de_DE', LANG: 'ja_JP' })).toBe(
      'fr-FR',
    );
    expect(languageFromEnvironment({ LC_ALL: '', LC_MESSAGES: 'de_DE', LANG: 'ja_JP' })).toBe('de-DE');
    expect(languageFromEnvironment({ LANG: 'ja_JP.eucJP' })).toBe('ja-JP');
  });

  it('drops the encoding and modifier; C, POSIX or nothing is English', () => {
    expect(languageFromEnvironment({ LANG: 'sr_RS@latin' })).toBe('sr-RS');
    expect(languageFromEnvironment({ LANG: 'C.UTF-8' })).toBe('en');
    expect(languageFromEnvironment({ LC_ALL: 'POSIX' })).toBe('en');
    expect(languageFromEnvironment({})).toBe('en');
  });

  it('ends at a host language: de_DE.UTF-8 → de, pt_BR → pt-BR, zh_CN → zh-CN, unknown → en', () => {
    const host = (env: Record<string, string>) => matchHostLanguage(languageFromEnvironment(env));
    expect(host({ LANG: 'de_DE.UTF-8' })).toBe('de');
    expect(host({ LANG: 'pt_BR' })).toBe('pt-BR');
    expect(host({ LANG: 'pt_PT.UTF-8' })).toBe('pt-BR');
    expect(host({ LANG: 'zh_CN.GB18030' })).toBe('zh-CN');
    expect(host({ LANG: 'ar_EG.UTF-8' })).toBe('ar');
    expect(host({ LANG: 'fi_FI.UTF-8' })).toBe('en');
  });
});

describe('--language', () => {
  it('is matched to a host language; not given, the CLI reads the environment', () => {
    expect(parseServeArgs(['--language', 'de']).language).toBe('de');
    expect(parseServeArgs(['--language=pt_PT']).language).toBe('pt-BR');
    expect(parseServeArgs(['--language', 'fi']).language).toBe('en');
    expect(parseServeArgs([]).language).toBeUndefined();
  });

  it('refuses what is not a language tag', () => {
    expect(() => parseServeArgs(['--language', 'de; rm -rf'])).toThrow(/--language/);
    expect(() => parseServeArgs(['--language', ''])).toThrow(/--language/);
  });
});
