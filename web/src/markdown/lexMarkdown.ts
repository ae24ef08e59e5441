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
  const plan = planLex(text, previous);
  const rest = lexPart(plan.source, plan.links);
  // A new reference definition may resolve a link in a kept block: lex it all again (rare).
  if (plan.kept.length > 0 && Object.keys(rest.links).length !== Object.keys(plan.links).length)
    return lexMarkdown(text);
  return joinLexed(text, plan, rest);
}

/** What {@link lexMarkdown} must lex: the tokens it keeps, the source after them, the links. */
export interface LexPlan {
  readonly kept: readonly Token[];
  readonly source: string;
  readonly links: TokensList['links'];
}

/** The part of `text` to lex again, given the result for a prefix of it (see {@link lexMarkdown}). */
export function planLex(text: string, previous?: Lexed): LexPlan {
  const cut = previous && text.startsWith(previous.text) ? reusable(previous.tokens) : null;
  if (!cut || !previous) return { kept: [], source: text, links: {} };
  return { kept: previous.tokens.slice(0, cut.count), source: text.slice(cut.offset), links: previous.links };
}

/** The tokens of a part and the reference definitions known after it. */
export interface LexedPart {
  readonly tokens: Token[];
  readonly links: TokensList['links'];
}

/**
 * Lexes `source` with the reference definitions `links` already known (those of the kept
 * blocks). Plain data in and out, so a worker can run it too.
 */
export function lexPart(source: string, links: TokensList['links']): LexedPart {
  const lexer = new Lexer(OPTIONS);
  // References defined in the kept part still resolve in the re-lexed part.
  Object.assign(lexer.tokens.links, links);
  const tokens = lexer.lex(source);
  return { tokens: [...tokens], links: tokens.links };
}

/** The whole message's result from the kept tokens and the newly lexed part. */
export function joinLexed(text: string, plan: LexPlan, rest: LexedPart): Lexed {
  return {
    text,
    tokens: plan.kept.length > 0 ? [...plan.kept, ...rest.tokens] : rest.tokens,
    links: rest.links,
  };
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
