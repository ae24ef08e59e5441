import type { Catalogue, MessageKey } from './catalogue';

/** Values put into a message's `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** Looks up a message by key and fills its placeholders. */
export type Translate = (key: MessageKey, params?: MessageParams) => string;

/**
 * A translator over a catalogue, or over part of one (the service worker's keys). Numbers in
 * `params` are formatted for the language (so `1234` reads `1.234` in German); a placeholder
 * without a value stays as written.
 *
 * @example createTranslator(en, 'en')('rateLimitedWait', { seconds: 5 })
 */
export function createTranslator<K extends MessageKey = MessageKey>(
  catalogue: Pick<Catalogue, K>,
  language: string,
): (key: K, params?: MessageParams) => string {
  const numbers = new Intl.NumberFormat(language);
  return (key, params) => {
    const message = catalogue[key];
    if (params === undefined) return message;
    return message.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      return typeof value === 'number' ? numbers.format(value) : value;
    });
  };
}
