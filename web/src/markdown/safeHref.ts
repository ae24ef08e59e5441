/**
 * The link targets a reply may open: web pages and mail only (never `javascript:`, `data:`,
 * relative paths, …). Returns the trimmed target, or null when the link must stay text.
 *
 * @example
 * ```ts
 * safeHref('https://a.test'); // 'https://a.test'
 * safeHref('javascript:alert(1)'); // null
 * ```
 */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  return /^(https?:\/\/|mailto:)[^\s]+$/i.test(href) ? href : null;
}
