import type { MessageKey } from './catalogue';
import { en } from './catalogues/en';
import { createTranslator, type MessageParams } from './translate';

/**
 * Something the page's state says to the person, before any component picks the language:
 * a catalogue key and its values. State code keeps the English text beside it (for logs,
 * tests and anything outside the page); components show `t(key, params)`.
 */
export interface Phrase {
  readonly key: MessageKey;
  readonly params?: MessageParams;
}

const english = createTranslator(en, 'en');

/** A phrase in English. @example inEnglish({ key: 'uploadFailed' }) // 'The upload failed.' */
export function inEnglish(phrase: Phrase): string {
  return english(phrase.key, phrase.params);
}
