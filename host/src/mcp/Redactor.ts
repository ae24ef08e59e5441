import type { McpServerConfig } from './mcpConfig';

/** Values shorter than this are not scrubbed: "1" or "on" would mangle every message. */
const MIN_SECRET_LENGTH = 4;
/** Longest message kept (a server's stderr or error text can be long). */
const MAX_MESSAGE = 500;

/**
 * Scrubs a server's configured secrets out of text before it is logged or shown: the values of
 * its `env` and `headers`, and the credentials and query values of its URL. An error from a
 * child or from fetch can quote any of them (a server printing its environment, a URL with
 * `?key=` in a fetch error).
 */
export class Redactor {
  private readonly secrets: readonly string[];

  constructor(config: McpServerConfig) {
    const values: string[] = [];
    if (config.transport === 'stdio') values.push(...Object.values(config.env));
    else {
      values.push(...Object.values(config.headers));
      // "Bearer abc…" is a value; so is the token alone in it.
      for (const value of Object.values(config.headers)) values.push(...value.split(/\s+/));
      const { url } = config;
      values.push(url.username, url.password, ...url.searchParams.values());
      // As written in the URL too (percent-encoded), which is how a fetch error quotes it.
      for (const pair of url.search.slice(1).split('&')) values.push(pair.slice(pair.indexOf('=') + 1));
    }
    // Longest first, so a value containing another is replaced whole.
    this.secrets = [...new Set(values.filter((v) => v.length >= MIN_SECRET_LENGTH))].sort(
      (a, b) => b.length - a.length,
    );
  }

  /** The text without any secret, on one line and at most {@link MAX_MESSAGE} characters. */
  scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    out = out.replace(/\s+/g, ' ').trim();
    return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE - 1)}…` : out;
  }
}
