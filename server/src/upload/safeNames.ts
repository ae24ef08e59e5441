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

/**
 * A conversation id from the browser, as is; undefined when no id can look like it. Ids are
 * the host's to shape (the contract allows any 1 to 200 characters), so only control
 * characters and lengths are refused here; the host answers not_found for one it does not know.
 */
export function plausibleId(raw: string): string | undefined {
  return raw.length > 0 && raw.length <= 200 && !hasControlCharacter(raw) ? raw : undefined;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
