import type { Catalogue, MessageKey } from './catalogue';

/** Values put into a message's `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** Looks up a message by key and fills its placeholders. */
export type Translate = (key: MessageKey, params?: MessageParams) => string;

/**
 * Languages whose numbers are written in the digits 0-9 with no sign or separator below 1,000,
 * so that such a count needs no Intl formatter (Arabic is left to Intl, whose digits for it
 * have changed between ICU versions). translate.test.ts holds each to Intl's answer.
 */
const PLAIN_DIGITS: ReadonlySet<string> = new Set(['en', 'de', 'fr', 'es', 'pt-BR', 'zh-CN', 'ja']);

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
  // Made at the first number a message shows that needs it (an Intl formatter costs its
  // locale's data: ~0.1 s of a slow phone's opening, for the sidebar's "Tools (3)").
  let numbers: Intl.NumberFormat | undefined;
  const plainDigits = PLAIN_DIGITS.has(language);
  return (key, params) => {
    const message = catalogue[key];
    if (params === undefined) return message;
    return message.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name];
      if (value === undefined) return whole;
      if (typeof value !== 'number') return value;
      if (plainDigits && Number.isInteger(value) && value >= 0 && value < 1000) return String(value);
      numbers ??= new Intl.NumberFormat(language);
      return numbers.format(value);
    });
  };
}
