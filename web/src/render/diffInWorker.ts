import type { ColouredRow, DiffAnswer, DiffRequest } from './diffMessages';
import { loadDiff } from './loadDiff';
import type { UnifiedDiff } from './unifiedDiff';

/**
 * A change's rows as {@link computeDiff} gives them: coloured in the worker (`coloured`), or not
 * (computed on the page, or the grammar did not load in the worker: the page colours them).
 */
export interface ComputedDiff extends UnifiedDiff {
  readonly rows: readonly ColouredRow[];
  readonly coloured: boolean;
}

/** Answers kept: an approval's diff is asked again by the tool call card once allowed. */
const KEPT = 8;

let worker: Worker | null | undefined;
let nextId = 0;
/** The requests not answered yet, with the rows received so far. */
const waiting = new Map<
  number,
  { readonly rows: ColouredRow[]; resolve(diff: ComputedDiff): void; reject(error: Error): void }
>();
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
      case 'rows':
        // A loop, not a spread: a spread of many arguments can overflow the stack.
        for (const row of data.rows) asked.rows.push(row);
        worker?.postMessage({ kind: 'more', id: data.id } satisfies DiffRequest);
        return;
      case 'done':
        waiting.delete(data.id);
        asked.resolve({
          change: data.change,
          added: data.added,
          removed: data.removed,
          rows: asked.rows,
          coloured: data.coloured,
        });
        return;
      case 'error':
        waiting.delete(data.id);
        asked.reject(new Error(data.error));
        return;
      default: {
        const never: never = data;
        throw new Error(`unknown diff answer ${JSON.stringify(never)}`);
      }
    }
  };
  // A worker that fails to load (a blocked script): every request still waiting, and every later
  // one, is computed on the page instead.
  worker.onerror = (event) => {
    event.preventDefault();
    worker?.terminate();
    worker = null;
    for (const asked of waiting.values()) asked.reject(new Error('the diff worker stopped'));
    waiting.clear();
  };
  return worker;
}

async function onThePage(oldText: string | null, newText: string, context: number): Promise<ComputedDiff> {
  return { ...(await loadDiff()).unifiedDiff(oldText, newText, context), coloured: false };
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
  const answer = new Promise<ComputedDiff>((resolve, reject) =>
    waiting.set(id, { rows: [], resolve, reject }),
  );
  running.postMessage({ kind: 'diff', id, oldText, newText, context, lang } satisfies DiffRequest);
  return answer.catch(() => onThePage(oldText, newText, context));
}

/**
 * A file change's rows, computed in a worker (jsdiff on a 5,000-line file is seconds of one
 * task on a slow phone) and coloured there as `lang` (a file extension), so that the page never
 * compiles a grammar nor highlights a row of a diff; computed on the page, not coloured, where no
 * worker runs. The last few answers are kept, so the same change drawn twice (the approval card,
 * then the tool call card) is computed once.
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
