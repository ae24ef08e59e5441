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
  // Made at the first number a message shows (an Intl formatter costs its locale's data).
  let numbers: Intl.NumberFormat | undefined;
  return (key, params) => {
    const message = catalogue[key];
    if (params === undefined) return message;
    return message.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      if (typeof value !== 'number') return value;
      numbers ??= new Intl.NumberFormat(language);
      return numbers.format(value);
    });
  };
}
