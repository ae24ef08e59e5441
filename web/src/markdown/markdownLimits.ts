/**
 * How much of a reply the page formats on its own thread, and how deep. A reply is untrusted
 * input (a model writes what a prompt injection tells it to): past these bounds it is shown as
 * written, with a notice, instead of overflowing the parser's stack or holding the page.
 */
export const MARKDOWN_LIMITS = {
  /**
   * Containers (quotes, list items) one line may open, counting its indentation as one level
   * per two columns. Real replies nest a handful; 20,000 nested `>` overflowed marked's stack.
   */
  lineNesting: 40,
  /** Depth of the token tree the renderer walks (it recurses once per level, as does Preact). */
  tokenDepth: 100,
  /**
   * Characters lexed at once on the page's thread. marked is quadratic on some inputs (`_a_a…`;
   * figures in docs/PERFORMANCE.md): this many such characters stay well within a frame budget. Longer parts go
   * to a worker with a deadline. While a reply streams, only its last blocks are lexed again, so
   * a growing reply stays under this.
   */
  syncChars: 8_000,
  /** How long the worker may take for one part before the reply is shown as written. */
  workerDeadlineMs: 3_000,
} as const;
