/**
 * The diff worker: computes a file change's rows (jsdiff's line diff and the word diffs of
 * modified lines) and their syntax colours off the page's main thread. A 5,000-line file took
 * 6 s of one task on the calibrated slow phone when computed on the page, and the first
 * highlight of a diff (highlight.js compiling the grammar) was the longest task of the card
 * (tests/bench/agentDiffSlowPhone.ts). Started by {@link computeDiff} (diffInWorker.ts); what it
 * answers: diffResponder.ts.
 */
import { loadHighlighter } from '../markdown/loadHighlighter';
import type { DiffAnswer, DiffRequest } from './diffMessages';
import { createDiffResponder } from './diffResponder';

// The worker's global scope, typed here: the page's compiler options carry the DOM library, not
// the worker's.
const scope = globalThis as unknown as {
  onmessage: ((event: { data: DiffRequest }) => void) | null;
  postMessage(answer: DiffAnswer): void;
};

// The rows go in several messages, one more each time the page has read one: it reads each in a
// task of its own, between which it answers taps and keys and draws frames.
const answer = createDiffResponder((each) => scope.postMessage(each), loadHighlighter);
scope.onmessage = ({ data }) => void answer(data);
