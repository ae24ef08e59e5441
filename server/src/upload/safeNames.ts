/** A file name from the browser, reduced to its last path segment; undefined when unusable. */
export function safeFileName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const base = raw.split(/[\\/]/).pop()?.trim() ?? '';
  if (base.length === 0 || base.length > 255 || hasControlCharacter(base) || base === '.' || base === '..') {
    return undefined;
  }
  return base;
}

/** A declared MIME type if it is well-formed (`type/subtype`), else `application/octet-stream`. */
export function safeMediaType(raw: string | undefined): string {
  const value = raw?.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(value)
    ? value
    : 'application/octet-stream';
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
