/** The named character references that replies use; any other stays as written. */
const NAMED: { readonly [name: string]: string } = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  times: '×',
  divide: '÷',
  deg: '°',
  middot: '·',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  euro: '€',
};

/**
 * Decodes character references in markdown text (marked leaves `&amp;` to its HTML
 * renderer; here the text becomes a text node, so it is decoded instead). Numeric references
 * outside Unicode, or naming NUL or a surrogate, become U+FFFD as CommonMark says.
 *
 * @example
 * ```ts
 * decodeEntities('a &amp; b &#x41;'); // 'a & b A'
 * ```
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g,
    (all, dec, hex, name) => {
      if (name !== undefined) return Object.hasOwn(NAMED, name) ? (NAMED[name] ?? all) : all;
      const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
        ? '\ufffd'
        : String.fromCodePoint(code);
    },
  );
}
