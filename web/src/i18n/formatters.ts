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
  /** A byte count for people: `512 byte`, `1.5 kB`, `12 MB` (en); `1,5 kB` (de). */
  readonly size: (bytes: number) => string;
}

const SIZE_UNITS = ['kilobyte', 'megabyte', 'gigabyte'] as const;

/** How many formatted timestamps a formatter keeps; past it, it starts over. */
const REMEMBERED = 512;

/**
 * `format`, remembering its answers for timestamps (epoch milliseconds). Intl formatting costs
 * a slow phone a quarter of a millisecond a call, and a message re-rendered for every streamed
 * word formats the same `createdAt` each time.
 */
function remembered(format: (value: Date | number) => string): (value: Date | number) => string {
  const known = new Map<number, string>();
  return (value) => {
    if (typeof value !== 'number') return format(value);
    let text = known.get(value);
    if (text === undefined) {
      if (known.size >= REMEMBERED) known.clear();
      text = format(value);
      known.set(value, text);
    }
    return text;
  };
}

/** `make`'s value, made on the first call: an `Intl` formatter costs its locale's data to build. */
function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}

/**
 * Formatters for a language, built once per language. Each `Intl` formatter is made when it is
 * first used: building them all when the module loaded was the largest single cost of opening
 * the page on a slow phone (docs/PERFORMANCE.md, "A slow phone, the same on every machine"), and
 * most pages never format a size.
 */
export function createFormatters(language: string): Formatters {
  const number = once(() => new Intl.NumberFormat(language));
  const dateTime = once(() => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }));
  const date = once(() => new Intl.DateTimeFormat(language, { dateStyle: 'medium' }));
  const time = once(() => new Intl.DateTimeFormat(language, { timeStyle: 'short' }));
  const unit = (name: string, digits: number) =>
    once(
      () =>
        new Intl.NumberFormat(language, {
          style: 'unit',
          unit: name,
          unitDisplay: 'short',
          maximumFractionDigits: digits,
        }),
    );
  const bytes = unit('byte', 0);
  // One decimal below 10 ("1.5 MB"), none above ("12 MB"), as the English page always had.
  const sizes = SIZE_UNITS.map((name) => [unit(name, 1), unit(name, 0)] as const);
  return {
    number: (value) => number().format(value),
    dateTime: remembered((value) => dateTime().format(value)),
    date: remembered((value) => date().format(value)),
    time: remembered((value) => time().format(value)),
    size: (count) => {
      if (count < 1024) return bytes().format(count);
      let value = count / 1024;
      let index = 0;
      while (value >= 1024 && index < SIZE_UNITS.length - 1) {
        value /= 1024;
        index++;
      }
      const pair = sizes[index];
      if (pair === undefined) return bytes().format(count);
      return pair[value < 10 ? 0 : 1]().format(value);
    },
  };
}
