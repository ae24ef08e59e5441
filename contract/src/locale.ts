import { z } from 'zod';

/**
 * What the connection page needs before the user has a code: language, its strings and the
 * protocol version. Nothing about the controller's state.
 */
export const localeSchema = z.object({
  language: z.string(),
  strings: z.record(z.string()),
  protocol: z.number().int(),
});
/** The public locale document. */
export type Locale = z.infer<typeof localeSchema>;

/**
 * The connection page's strings in English, by key: what a host serves in `/api/locale` unless
 * it translates them, and what a client shows until the locale arrives. One list, so the
 * keys a host sends and the keys a page reads cannot drift apart.
 */
export const CONNECTION_STRINGS = {
  title: 'webbridge',
  prompt: 'Enter the access code shown by the host.',
  codeLabel: 'Access code',
  connect: 'Connect',
  connecting: 'Connecting…',
  wrongCode: 'That code is not right. Check it on the host and try again.',
  rateLimited: 'Too many attempts. Wait a moment and try again.',
  disconnected: 'Connection lost. Reconnecting…',
  protocolMismatch: 'The host was updated. Reload the page.',
  reload: 'Reload',
} as const;
/** A key of the connection page's strings. */
export type ConnectionStringKey = keyof typeof CONNECTION_STRINGS;
