/**
 * The diff worker: computes a file change's rows (jsdiff's line diff and the word diffs of
 * modified lines) off the page's main thread. A 5,000-line file took 6 s of one task on the
 * calibrated slow phone when computed on the page (tests/bench/agentDiffSlowPhone.ts): no tap,
 * key or scroll was answered meanwhile. Started by {@link computeDiff} (diffInWorker.ts).
 */
import { type DiffAnswer, type DiffRequest, ROWS_PER_MESSAGE } from './diffMessages';
import { unifiedDiff } from './unifiedDiff';

// The worker's global scope, typed here: the page's compiler options carry the DOM library, not
// the worker's.
const scope = globalThis as unknown as {
  onmessage: ((event: { data: DiffRequest }) => void) | null;
  postMessage(answer: DiffAnswer): void;
};

// The rows go in several messages: the page reads each in a task of its own, between which it
// answers taps and keys and draws frames.
scope.onmessage = ({ data }) => {
  const { id } = data;
  try {
    const { rows, change, added, removed } = unifiedDiff(data.oldText, data.newText, data.context);
    for (let at = 0; at < rows.length; at += ROWS_PER_MESSAGE)
      scope.postMessage({ id, kind: 'rows', rows: rows.slice(at, at + ROWS_PER_MESSAGE) });
    scope.postMessage({ id, kind: 'done', change, added, removed });
  } catch (error) {
    scope.postMessage({ id, kind: 'error', error: error instanceof Error ? error.message : String(error) });
  }
};
