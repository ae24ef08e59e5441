import { Lexer, type MarkedOptions, type Token, type TokensList } from 'marked';
import { EXTENSIONS } from './extensions';

/** A message's text and its top-level tokens. */
export interface Lexed {
  readonly text: string;
  readonly tokens: readonly Token[];
  readonly links: TokensList['links'];
}

const OPTIONS: MarkedOptions = {
  gfm: true,
  // Replies are chat: a single newline is meant as a line break.
  breaks: true,
  extensions: EXTENSIONS as NonNullable<MarkedOptions['extensions']>,
};

/**
 * Tokenizes markdown with marked's lexer (GFM: tables, task lists, strikethrough, autolinks;
 * plus footnotes and math). Given the previous result for a prefix of `text` (a reply that
 * grew by a word), it keeps every block that ended before the last blank line that precedes
 * the last two blocks, and lexes only the rest: streaming costs the size of the last blocks,
 * not of the message. Kept tokens keep their identity, so their elements render no more.
 *
 * @example
 * ```ts
 * let lexed = lexMarkdown('# Title\n\nSome');
 * lexed = lexMarkdown('# Title\n\nSome text', lexed); // re-lexes 'Some text' only
 * ```
 */
export function lexMarkdown(text: string, previous?: Lexed): Lexed {
  const cut = previous && text.startsWith(previous.text) ? reusable(previous.tokens) : null;
  if (!cut || !previous) {
    const tokens = new Lexer(OPTIONS).lex(text);
    return { text, tokens, links: tokens.links };
  }
  const lexer = new Lexer(OPTIONS);
  // References defined in the kept part still resolve in the re-lexed part.
  Object.assign(lexer.tokens.links, previous.links);
  const rest = lexer.lex(text.slice(cut.offset));
  // A new reference definition may resolve a link in a kept block: lex it all again (rare).
  if (Object.keys(rest.links).length !== Object.keys(previous.links).length) return lexMarkdown(text);
  return { text, tokens: [...previous.tokens.slice(0, cut.count), ...rest], links: rest.links };
}

/**
 * How many leading tokens stay valid whatever is appended: those before a blank line that
 * is followed by a block starting at the margin (so not the continuation of a list item or
 * indented code), leaving at least the last two blocks to be lexed again.
 */
function reusable(tokens: readonly Token[]): { count: number; offset: number } | null {
  for (let i = tokens.length - 2; i >= 2; i--) {
    const before = tokens[i - 1];
    const at = tokens[i];
    if (before?.type !== 'space' || !at || /^[ \t]/.test(at.raw)) continue;
    let offset = 0;
    for (let j = 0; j < i; j++) offset += tokens[j]?.raw.length ?? 0;
    return { count: i, offset };
  }
  return null;
}
