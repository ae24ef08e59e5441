import type { Catalogue } from '../../i18n/catalogue';
import { ar } from '../../i18n/catalogues/ar';
import { de } from '../../i18n/catalogues/de';
import { en } from '../../i18n/catalogues/en';
import { es } from '../../i18n/catalogues/es';
import { fr } from '../../i18n/catalogues/fr';
import { ja } from '../../i18n/catalogues/ja';
import { ptBR } from '../../i18n/catalogues/pt-BR';
import { zhCN } from '../../i18n/catalogues/zh-CN';
import { LANGUAGES } from '../../i18n/languages';
import { WORKER_KEYS, type WorkerCatalogues, type WorkerStrings } from '../workerKeys';

/** Every language's catalogue; the mapped type makes a missing language a type error. */
const CATALOGUES: WorkerCatalogueSource = { en, de, fr, es, 'pt-BR': ptBR, 'zh-CN': zhCN, ja, ar };
type WorkerCatalogueSource = { readonly [L in keyof WorkerCatalogues]: Catalogue };

/**
 * The worker's keys ({@link WORKER_KEYS}) of every language's catalogue, taken at build time:
 * the worker carries these few strings per language, never a copy kept by hand.
 */
export function workerCatalogues(): WorkerCatalogues {
  const pick = (catalogue: Catalogue): WorkerStrings =>
    Object.fromEntries(WORKER_KEYS.map((key) => [key, catalogue[key]])) as WorkerStrings;
  return Object.fromEntries(
    LANGUAGES.map((language) => [language, pick(CATALOGUES[language])]),
  ) as unknown as WorkerCatalogues;
}
