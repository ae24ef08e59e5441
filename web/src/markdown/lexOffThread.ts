import type { TokensList } from 'marked';
import type { LexedPart } from './lexMarkdown';
import type { LexRequest } from './lexWorker';
import { MARKDOWN_LIMITS } from './markdownLimits';

/** A part lexed by the worker, or why it was not: too slow, or it failed (or no workers here). */
export type OffThreadLex = LexedPart | 'slow' | 'failed';

interface Job {
  readonly request: LexRequest;
  readonly resolve: (answer: OffThreadLex) => void;
}

const queue: Job[] = [];
let worker: Worker | null = null;
let current: { job: Job; timer: ReturnType<typeof setTimeout> } | null = null;

function finish(answer: OffThreadLex): void {
  if (!current) return;
  clearTimeout(current.timer);
  const { job } = current;
  current = null;
  job.resolve(answer);
  next();
}

function discardWorker(): void {
  worker?.terminate();
  worker = null;
}

function start(): Worker {
  const created = new Worker(new URL('./lexWorker.ts', import.meta.url), { type: 'module' });
  created.addEventListener('message', (event: MessageEvent<LexedPart | null>) =>
    finish(event.data ?? 'failed'),
  );
  created.addEventListener('error', () => {
    discardWorker();
    finish('failed');
  });
  return created;
}

function next(): void {
  if (current) return;
  const job = queue.shift();
  if (!job) return;
  worker ??= start();
  // One part at a time, each with its own deadline: a part that runs past it ends the worker
  // (the only way to stop a running regular expression) and the next part gets a fresh one.
  const timer = setTimeout(() => {
    discardWorker();
    finish('slow');
  }, MARKDOWN_LIMITS.workerDeadlineMs);
  current = { job, timer };
  worker.postMessage(job.request);
}

/**
 * Lexes a part of a reply in a worker, within {@link MARKDOWN_LIMITS.workerDeadlineMs}: the
 * page's thread never runs a parse that could hold it for seconds. Parts wait their turn in
 * one worker. Resolves `'failed'` at once where the browser has no workers.
 */
export function lexOffThread(source: string, links: TokensList['links']): Promise<OffThreadLex> {
  if (typeof Worker !== 'function') return Promise.resolve('failed');
  return new Promise((resolve) => {
    queue.push({ request: { source, links }, resolve });
    next();
  });
}
