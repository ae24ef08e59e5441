/**
 * The diff worker: computes a file change's rows (jsdiff's line diff and the word diffs of
 * modified lines) off the page's main thread. A 5,000-line file took 6 s of one task on the
 * calibrated slow phone when computed on the page (tests/bench/agentDiffSlowPhone.ts): no tap,
 * key or scroll was answered meanwhile. Started by {@link computeDiff} (diffInWorker.ts).
 */
import { type DiffAnswer, type DiffRequest, ROWS_PER_MESSAGE } from './diffMessages';
import { type DiffRow, unifiedDiff } from './unifiedDiff';

// The worker's global scope, typed here: the page's compiler options carry the DOM library, not
// the worker's.
const scope = globalThis as unknown as {
  onmessage: ((event: { data: DiffRequest }) => void) | null;
  postMessage(answer: DiffAnswer): void;
};

/** Rows computed and not yet sent, by request. */
const unsent = new Map<number, { rows: readonly DiffRow[]; at: number; done: DiffAnswer }>();

/** The next message of request `id`: its next rows, or the counts once all are sent. */
function sendNext(id: number): void {
  const left = unsent.get(id);
  if (!left) return;
  if (left.at >= left.rows.length) {
    unsent.delete(id);
    scope.postMessage(left.done);
    return;
  }
  scope.postMessage({ id, kind: 'rows', rows: left.rows.slice(left.at, left.at + ROWS_PER_MESSAGE) });
  left.at += ROWS_PER_MESSAGE;
}

// The rows go in several messages, one more each time the page has read one: it reads each in a
// task of its own, between which it answers taps and keys and draws frames.
scope.onmessage = ({ data }) => {
  switch (data.kind) {
    case 'more':
      sendNext(data.id);
      return;
    case 'diff': {
      const { id } = data;
      try {
        const { rows, change, added, removed } = unifiedDiff(data.oldText, data.newText, data.context);
        unsent.set(id, { rows, at: 0, done: { id, kind: 'done', change, added, removed } });
        sendNext(id);
      } catch (error) {
        scope.postMessage({
          id,
          kind: 'error',
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return;
    }
    default: {
      const never: never = data;
      throw new Error(`unknown diff request ${JSON.stringify(never)}`);
    }
  }
};
