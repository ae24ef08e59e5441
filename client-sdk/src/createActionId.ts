/**
 * A random RFC 4122 version-4 id for an action's `actionId`.
 *
 * `crypto.randomUUID` exists only in secure contexts (HTTPS or localhost), and the bridge is
 * usually opened over plain HTTP on the local network, so the id is built from
 * `crypto.getRandomValues` (available everywhere) when `randomUUID` is missing.
 *
 * @example
 * ```ts
 * createActionId(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 * ```
 */
export function createActionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
