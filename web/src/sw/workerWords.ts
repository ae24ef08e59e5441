import { createFormatters } from '../i18n/formatters';
import { type Language, textDirection } from '../i18n/languages';
import { createTranslator, type MessageParams } from '../i18n/translate';
import type { WorkerCatalogues, WorkerKey } from './workerKeys';

// The worker's keys of every catalogue, put here by the build (build/workerCatalogues.ts).
declare const __WORKER_CATALOGUES__: WorkerCatalogues;

/** What the worker says, in one language. */
export interface WorkerWords {
  readonly language: Language;
  readonly dir: 'ltr' | 'rtl';
  /** A catalogue string, its `{name}` placeholders filled. */
  readonly t: (key: WorkerKey, params?: MessageParams) => string;
  /** A time of day, hours and minutes, as the language writes it. */
  readonly time: (at: number) => string;
}

/** The worker's words in `language`, from that language's catalogue. */
export function workerWords(language: Language): WorkerWords {
  return {
    language,
    dir: textDirection(language),
    t: createTranslator(__WORKER_CATALOGUES__[language], language),
    time: createFormatters(language).time,
  };
}
