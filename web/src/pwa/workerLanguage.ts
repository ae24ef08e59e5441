import { isLanguage, type Language } from '../i18n/languages';

// Where the page leaves its language for the service worker: the origin's cache, which both
// can read (the worker has no localStorage).
const CACHE = 'webbridge-page-language';
const ENTRY = '/__webbridge/page-language';

/**
 * Leaves the page's language where the service worker reads it, so a notification shown while
 * no page is open speaks the person's language. The worker has every language's strings itself.
 */
export async function keepWorkerLanguage(language: Language): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(CACHE);
  await cache.put(
    ENTRY,
    new Response(JSON.stringify({ language }), { headers: { 'Content-Type': 'application/json' } }),
  );
}

/** The language the page last left (see {@link keepWorkerLanguage}); English when none. */
export async function readWorkerLanguage(): Promise<Language> {
  try {
    const stored = await (await caches.open(CACHE)).match(ENTRY);
    const value: unknown = stored ? await stored.json() : null;
    const language =
      typeof value === 'object' && value !== null && 'language' in value ? value.language : undefined;
    return typeof language === 'string' && isLanguage(language) ? language : 'en';
  } catch {
    // No storage (a private window): the worker speaks English, as the page does before it knows.
    return 'en';
  }
}
