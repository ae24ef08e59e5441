/** Dates and numbers written the way a language writes them (Intl). */
export interface Formatters {
  /** A number: `1234.5` → `1,234.5` (en), `1.234,5` (de), `١٬٢٣٤٫٥` (ar). */
  readonly number: (value: number) => string;
  /** A date and time, short: `Nov 23, 2026, 3:04 PM` (en), `23.11.2026, 15:04` (de). */
  readonly dateTime: (value: Date | number) => string;
  /** A date alone, medium length. */
  readonly date: (value: Date | number) => string;
  /** A time alone, hours and minutes. */
  readonly time: (value: Date | number) => string;
}

/** Formatters for a language, built once per language. */
export function createFormatters(language: string): Formatters {
  const number = new Intl.NumberFormat(language);
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  const time = new Intl.DateTimeFormat(language, { timeStyle: 'short' });
  return {
    number: (value) => number.format(value),
    dateTime: (value) => dateTime.format(value),
    date: (value) => date.format(value),
    time: (value) => time.format(value),
  };
}
