/**
 * The language tag of the environment's locale, as POSIX reads it: the first non-empty of
 * `LC_ALL`, `LC_MESSAGES` and `LANG`, with its encoding and modifier dropped and `_` read as
 * `-` (`de_DE.UTF-8` → `de-DE`, `sr_RS@latin` → `sr-RS`). `C`, `POSIX` or nothing → `en`.
 *
 * @example languageFromEnvironment({ LANG: 'pt_BR.UTF-8' }) // 'pt-BR'
 */
export function languageFromEnvironment(env: Readonly<Record<string, string | undefined>>): string {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  if (locale === undefined) return 'en';
  const tag = locale.split(/[.@]/)[0]?.replace(/_/g, '-') ?? '';
  if (tag === '' || tag === 'C' || tag === 'POSIX') return 'en';
  return tag;
}
