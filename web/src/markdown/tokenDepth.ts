import type { Token } from 'marked';

/**
 * The depth of a token tree (1 for tokens without children), counting list items and table
 * cells, stopping as soon as it passes `limit` (so its own recursion stays shallow too).
 */
export function tokenDepth(tokens: readonly Token[] | undefined, limit: number): number {
  if (!tokens || tokens.length === 0) return 0;
  if (limit <= 0) return 1;
  let deepest = 1;
  for (const token of tokens) {
    let below = 0;
    if (token.type === 'list') below = tokenDepth(token.items as Token[], limit - 1);
    else if (token.type === 'table') {
      for (const cell of token.header) below = Math.max(below, tokenDepth(cell.tokens, limit - 1));
      for (const row of token.rows)
        for (const cell of row) below = Math.max(below, tokenDepth(cell.tokens, limit - 1));
    } else if ('tokens' in token && Array.isArray(token.tokens)) below = tokenDepth(token.tokens, limit - 1);
    deepest = Math.max(deepest, below + 1);
    if (deepest > limit) return deepest;
  }
  return deepest;
}
