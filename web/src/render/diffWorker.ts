/**
 * The diff worker: computes a file change's rows (jsdiff's line diff and the word diffs of
 * modified lines) off the page's main thread. A 5,000-line file took 6 s of one task on the
 * calibrated slow phone when computed on the page (tests/bench/agentDiffSlowPhone.ts): no tap,
 * key or scroll was answered meanwhile. Started by {@link computeDiff} (diffInWorker.ts).
 */
import type { DiffAnswer, DiffRequest } from './diffMessages';
import { unifiedDiff } from './unifiedDiff';

// The worker's global scope, typed here: the page's compiler options carry the DOM library, not
// the worker's.
const scope = globalThis as unknown as {
  onmessage: ((event: { data: DiffRequest }) => void) | null;
  postMessage(answer: DiffAnswer): void;
};

scope.onmessage = ({ data }) => {
  try {
    scope.postMessage({ id: data.id, diff: unifiedDiff(data.oldText, data.newText, data.context) });
  } catch (error) {
    scope.postMessage({ id: data.id, error: error instanceof Error ? error.message : String(error) });
  }
};
