import { joinLexed, type Lexed, type LexedPart, type LexPlan, lexPart, planLex } from './lexMarkdown';
import { lineNesting } from './lineNesting';
import { MARKDOWN_LIMITS } from './markdownLimits';
import { tokenDepth } from './tokenDepth';

/** Why a reply is shown as written: nested too deeply, too slow to lex, or it failed. */
export type Refusal = 'deep' | 'slow' | 'broken';

/** A reply lexed, refused, or to be lexed in the worker (the part the plan names). */
export type BoundedLex =
  | { readonly kind: 'lexed'; readonly lexed: Lexed }
  | { readonly kind: 'refused'; readonly reason: Refusal }
  | { readonly kind: 'offThread'; readonly plan: LexPlan };

/**
 * {@link lexMarkdown} within {@link MARKDOWN_LIMITS}: a part nested too deeply is refused
 * before the recursive lexer sees it; a part too long to lex here safely is left to the worker;
 * a stack overflow the pre-check missed is caught. Only the part lexed again is checked, so a
 * streamed word costs the size of the last blocks, as before.
 */
export function boundedLex(text: string, previous?: Lexed): BoundedLex {
  const plan = planLex(text, previous);
  if (lineNesting(plan.source) > MARKDOWN_LIMITS.lineNesting) return { kind: 'refused', reason: 'deep' };
  if (plan.source.length > MARKDOWN_LIMITS.syncChars) return { kind: 'offThread', plan };
  let rest: LexedPart;
  try {
    rest = lexPart(plan.source, plan.links);
  } catch (error) {
    return { kind: 'refused', reason: error instanceof RangeError ? 'deep' : 'broken' };
  }
  return acceptPart(text, plan, rest);
}

/**
 * Joins a lexed part to the kept tokens, refusing a token tree deeper than the renderer may
 * walk. A part that defined a new reference link may change a kept block: then all of `text` is
 * lexed again (rare), which may itself be work for the worker.
 */
export function acceptPart(text: string, plan: LexPlan, rest: LexedPart): BoundedLex {
  if (tokenDepth(rest.tokens, MARKDOWN_LIMITS.tokenDepth) > MARKDOWN_LIMITS.tokenDepth)
    return { kind: 'refused', reason: 'deep' };
  if (plan.kept.length > 0 && Object.keys(rest.links).length !== Object.keys(plan.links).length)
    return boundedLex(text);
  return { kind: 'lexed', lexed: joinLexed(text, plan, rest) };
}
