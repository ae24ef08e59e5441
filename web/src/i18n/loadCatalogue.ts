import type { Catalogue } from './catalogue';
import { en } from './catalogues/en';
import type { Language } from './languages';

/**
 * A language's catalogue. English is in the initial bundle; every other language is its own
 * chunk, fetched only when the page speaks it.
 */
export async function loadCatalogue(language: Language): Promise<Catalogue> {
  switch (language) {
    case 'en':
      return en;
    case 'de':
      return (await import('./catalogues/de')).de;
    case 'fr':
      return (await import('./catalogues/fr')).fr;
    case 'es':
      return (await import('./catalogues/es')).es;
    case 'pt-BR':
      return (await import('./catalogues/pt-BR')).ptBR;
    case 'zh-CN':
      return (await import('./catalogues/zh-CN')).zhCN;
    case 'ja':
      return (await import('./catalogues/ja')).ja;
    case 'ar':
      return (await import('./catalogues/ar')).ar;
    default: {
      const never: never = language;
      return never;
    }
  }
}
