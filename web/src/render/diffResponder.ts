import { grammarOf } from '../markdown/grammars';
import type { Highlighter, HighlighterLoader } from '../markdown/loadHighlighter';
import { diffGaps } from './diffGaps';
import {
  type ColouredRow,
  type DiffAnswer,
  type DiffHead,
  type DiffRequest,
  ROWS_PER_MESSAGE,
} from './diffMessages';
import { hastToColours } from './hastToColours';
import { type DiffRow, unifiedDiff } from './unifiedDiff';

/** A request's rows computed and not yet sent. */
interface Unsent {
  readonly rows: readonly DiffRow[];
  at: number;
  readonly lang: string;
  readonly highlighter: Highlighter | null;
  /** Sent with the first rows, then cleared. */
  head: DiffHead | undefined;
}

/**
 * The diff worker's side of the protocol (diffMessages.ts), apart from the worker's global scope
 * so that a test can drive it: computes a change's rows, loads its language's grammars, and
 * answers with {@link ROWS_PER_MESSAGE} rows at a time, each coloured as it is sent (highlighting
 * 4,000 rows up front would hold the first ones back). `post` sends an answer; `load` is the
 * highlighter loader (the worker's own copy of the page's, loadHighlighter.ts).
 *
 * @example
 * ```ts
 * const answer = createDiffResponder((a) => postMessage(a), loadHighlighter);
 * onmessage = ({ data }) => void answer(data);
 * ```
 */
export function createDiffResponder(
  post: (answer: DiffAnswer) => void,
  load: HighlighterLoader,
): (request: DiffRequest) => Promise<void> {
  const unsent = new Map<number, Unsent>();
  const sendNext = (id: number): void => {
    const left = unsent.get(id);
    if (!left) return;
    const { head } = left;
    if (head === undefined && left.at >= left.rows.length) {
      unsent.delete(id);
      post({ id, kind: 'done' });
      return;
    }
    const slice = left.rows.slice(left.at, left.at + ROWS_PER_MESSAGE);
    left.at += ROWS_PER_MESSAGE;
    const rows = left.highlighter ? colour(slice, left.lang, left.highlighter) : slice;
    if (head === undefined) {
      post({ id, kind: 'rows', rows });
      return;
    }
    left.head = undefined;
    post({ id, kind: 'start', head, rows });
  };
  return async (request) => {
    switch (request.kind) {
      case 'more':
        sendNext(request.id);
        return;
      case 'diff': {
        const { id, lang } = request;
        const known = grammarOf(lang) !== undefined;
        // Asked for first: the chunks are fetched while the rows are computed. Null, never a
        // rejection: a grammar that did not load leaves the colours to the page.
        const loading = known ? load(lang) : Promise.resolve(null);
        let computed: ReturnType<typeof unifiedDiff>;
        try {
          computed = unifiedDiff(request.oldText, request.newText, request.context);
        } catch (error) {
          post({ id, kind: 'error', error: error instanceof Error ? error.message : String(error) });
          return;
        }
        const highlighter = await loading;
        const { rows, change, added, removed } = computed;
        const gaps = diffGaps(rows, request.newText);
        const coloured = !known || highlighter !== null;
        const head = { change, added, removed, total: rows.length, gaps, coloured };
        unsent.set(id, { rows, at: 0, lang, highlighter, head });
        sendNext(id);
        return;
      }
      default: {
        const never: never = request;
        throw new Error(`unknown diff request ${JSON.stringify(never)}`);
      }
    }
  };
}

/** `rows` with their colours: every row the page would have highlighted (no word marks, no gap). */
function colour(rows: readonly DiffRow[], lang: string, highlighter: Highlighter): ColouredRow[] {
  // One table of class names for the message: sent once, shared by its rows.
  const classes: string[] = [];
  return rows.map((row) => {
    if (row.kind === 'hunk' || row.words) return row;
    const tree = highlighter.highlight(row.text, lang);
    return tree ? { ...row, colours: hastToColours(tree, classes) } : row;
  });
}
