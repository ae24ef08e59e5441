/**
 * What the longest main-thread tasks of a Chromium trace (`devtools.timeline`) were made of: for
 * each task, the self time per kind of event nested in it (Layout, Paint, a function call by
 * its name, Recalculate Style…), largest first. A CPU profile says which functions ran; this
 * says which *task* went over budget and why, which is what a 100 ms target asks.
 */
import type { TraceEvent } from './cpuProfileSummary';

/** A trace event with the timing fields a breakdown reads. */
interface Timed extends TraceEvent {
  readonly ts: number;
  readonly dur: number;
}

/** One long task: when it started (trace µs), how long it took, and its self time by kind. */
export interface TaskBreakdown {
  readonly startMs: number;
  readonly ms: number;
  readonly parts: readonly { readonly name: string; readonly ms: number }[];
}

/** The label of an event: a function call names its function and file where the trace has it. */
function labelOf(event: TraceEvent): string {
  const data = event.args?.data as { functionName?: string; url?: string; type?: string } | undefined;
  if (event.name === 'FunctionCall' && data) {
    const file = (data.url ?? '').split('/').pop() ?? '';
    return `FunctionCall ${data.functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
  }
  if (event.name === 'EventDispatch' && data?.type) return `EventDispatch ${data.type}`;
  return event.name;
}

/**
 * The `count` longest tasks (`RunTask` on the renderer's main thread) of at least `minMs`, each
 * with its self time per nested event kind (the task's own part is what no traced event covers).
 */
export function longTaskBreakdown(events: readonly TraceEvent[], minMs = 50, count = 5): TaskBreakdown[] {
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  if (!main) return [];
  const onMain = events
    .filter(
      (e): e is Timed =>
        e.pid === main.pid &&
        e.tid === main.tid &&
        e.ph === 'X' &&
        typeof (e as Partial<Timed>).ts === 'number' &&
        typeof e.dur === 'number',
    )
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = onMain
    .filter((e) => e.name === 'RunTask' && e.dur >= minMs * 1000)
    .sort((a, b) => b.dur - a.dur)
    .slice(0, count);
  return tasks.map((task) => {
    const end = task.ts + task.dur;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= end);
    // Self time: each event's duration less its direct children's (nesting by containment).
    const self = new Map<string, number>();
    const stack: Timed[] = [];
    const add = (name: string, us: number) => self.set(name, (self.get(name) ?? 0) + us);
    add('(task itself)', task.dur);
    for (const event of inside) {
      while (stack.length > 0 && event.ts >= (stack.at(-1)?.ts ?? 0) + (stack.at(-1)?.dur ?? 0)) stack.pop();
      const parent = stack.at(-1);
      add(parent ? labelOf(parent) : '(task itself)', -event.dur);
      add(labelOf(event), event.dur);
      stack.push(event);
    }
    const parts = [...self.entries()]
      .filter(([, us]) => us >= 1000)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([name, us]) => ({ name, ms: us / 1000 }));
    return { startMs: task.ts / 1000, ms: task.dur / 1000, parts };
  });
}
