import { diffGaps } from './diffGaps';
import type { ColouredRow, DiffAnswer, DiffHead, DiffRequest } from './diffMessages';
import { loadDiff } from './loadDiff';

/**
 * A change's rows as {@link computeDiff} gives them, from the worker's first message on: `rows`
 * grows, message by message, to `total` rows (`complete` resolves then; `listen` is told of each
 * arrival). Coloured in the worker (`coloured`), or not (computed on the page, or the grammar did
 * not load in the worker: the page colours them).
 */
export interface ComputedDiff extends DiffHead {
  readonly rows: readonly ColouredRow[];
  readonly complete: Promise<void>;
  /** Calls `listener` each time rows arrive; returns the function that stops it. */
  listen(listener: () => void): () => void;
  /**
   * Asks for the first `count` rows (Infinity: all, and `complete` then resolves): the worker
   * sends rows only as far as a card asked, so the page does not read 4,000 rows to draw 120.
   */
  want(count: number): void;
}

/** Answers kept: an approval's diff is asked again by the tool call card once allowed. */
const KEPT = 8;

/** A request not answered in full yet. */
interface Asked {
  readonly oldText: string | null;
  readonly newText: string;
  readonly context: number;
  /** Set by the first message. */
  diff?: Arriving;
  started(diff: ComputedDiff): void;
  failed(error: Error): void;
}

/** A {@link ComputedDiff} being filled. */
interface Arriving {
  readonly diff: ComputedDiff;
  add(rows: readonly ColouredRow[]): void;
  finish(): void;
}

/**
 * A diff whose rows arrive; `ask` asks the worker for its next message (none: all are in). It is
 * asked while fewer rows are in than were wanted, one message at a time; once every row is
 * wanted, to the end (the worker's `done`).
 */
function arriving(head: DiffHead, ask?: () => void): Arriving {
  const rows: ColouredRow[] = [];
  const listeners = new Set<() => void>();
  let resolve = () => {};
  const complete = new Promise<void>((done) => {
    resolve = done;
  });
  let wanted = 0;
  let asking = false;
  let finished = ask === undefined;
  const pull = () => {
    if (asking || finished || (rows.length >= wanted && wanted < head.total)) return;
    asking = true;
    ask?.();
  };
  return {
    diff: {
      ...head,
      rows,
      complete,
      listen(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      want(count) {
        wanted = Math.max(wanted, count);
        pull();
      },
    },
    add(more) {
      asking = false;
      // A loop, not a spread: a spread of many arguments can overflow the stack.
      for (const row of more) rows.push(row);
      for (const listener of listeners) listener();
      pull();
    },
    finish: () => {
      asking = false;
      finished = true;
      resolve();
    },
  };
}

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, Asked>();
const kept = new Map<string, Promise<ComputedDiff>>();

/** The worker, started once; null where there is none (a test's DOM) or it cannot start. */
function theWorker(): Worker | null {
  if (worker !== undefined) return worker;
  worker = null;
  if (typeof Worker === 'undefined') return null;
  try {
    worker = new Worker(new URL('./diffWorker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  worker.onmessage = ({ data }: MessageEvent<DiffAnswer>) => {
    const asked = waiting.get(data.id);
    if (!asked) return;
    switch (data.kind) {
      case 'start': {
        const { id } = data;
        asked.diff = arriving(data.head, () =>
          worker?.postMessage({ kind: 'more', id } satisfies DiffRequest),
        );
        asked.diff.add(data.rows);
        asked.started(asked.diff.diff);
        return;
      }
      case 'rows':
        asked.diff?.add(data.rows);
        return;
      case 'done':
        waiting.delete(data.id);
        asked.diff?.finish();
        return;
      case 'error':
        waiting.delete(data.id);
        asked.failed(new Error(data.error));
        return;
      default: {
        const never: never = data;
        throw new Error(`unknown diff answer ${JSON.stringify(never)}`);
      }
    }
  };
  // A worker that fails to load (a blocked script) or stops: every request still waiting, and
  // every later one, is computed on the page instead; one already drawing gets its other rows
  // from the page (not coloured).
  worker.onerror = (event) => {
    event.preventDefault();
    worker?.terminate();
    worker = null;
    for (const asked of waiting.values()) {
      const { diff } = asked;
      if (!diff) {
        asked.failed(new Error('the diff worker stopped'));
        continue;
      }
      void onThePage(asked.oldText, asked.newText, asked.context).then((whole) => {
        diff.add(whole.rows.slice(diff.diff.rows.length));
        diff.finish();
      });
    }
    waiting.clear();
  };
  return worker;
}

async function onThePage(oldText: string | null, newText: string, context: number): Promise<ComputedDiff> {
  const { rows, change, added, removed } = (await loadDiff()).unifiedDiff(oldText, newText, context);
  const done = arriving({
    change,
    added,
    removed,
    total: rows.length,
    gaps: diffGaps(rows, newText),
    coloured: false,
  });
  done.add(rows);
  done.finish();
  return done.diff;
}

function inWorker(
  oldText: string | null,
  newText: string,
  context: number,
  lang: string,
): Promise<ComputedDiff> {
  const running = theWorker();
  if (running === null) return onThePage(oldText, newText, context);
  const id = nextId++;
  const answer = new Promise<ComputedDiff>((started, failed) =>
    waiting.set(id, { oldText, newText, context, started, failed }),
  );
  running.postMessage({ kind: 'diff', id, oldText, newText, context, lang } satisfies DiffRequest);
  return answer.catch(() => onThePage(oldText, newText, context));
}

/**
 * A file change's rows, computed in a worker (jsdiff on a 5,000-line file is seconds of one
 * task on a slow phone) and coloured there as `lang` (a file extension), so that the page never
 * compiles a grammar nor highlights a row of a diff; computed on the page, not coloured, where no
 * worker runs. Resolves with the worker's first rows, the others arriving after. The last few
 * answers are kept, so the same change drawn twice (the approval card, then the tool call card)
 * is computed once.
 */
export function computeDiff(
  oldText: string | null,
  newText: string,
  context: number,
  lang: string,
): Promise<ComputedDiff> {
  const key = `${context}\u0000${lang}\u0000${oldText === null ? '\u0001' : oldText}\u0000${newText}`;
  const known = kept.get(key);
  if (known) {
    kept.delete(key);
    kept.set(key, known);
    return known;
  }
  const computed = inWorker(oldText, newText, context, lang);
  kept.set(key, computed);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  return computed;
}
