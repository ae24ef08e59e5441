/**
 * Reading a V8 CPU profile (CDP `Profiler.stop`) and a Chromium trace (CDP `Tracing`) down to
 * what a person deciding a fix needs: the functions with the most self time, and how long the
 * renderer's main thread spent compiling, evaluating scripts, styling, laying out and painting.
 */

/** A node of a V8 CPU profile (the fields read here). */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
}

/** A V8 CPU profile as CDP returns it. */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

/** Self time per function (ms), largest first: `name file:line`, with the profile's length. */
export function topSelfTime(
  profile: CpuProfile,
  count = 12,
): { totalMs: number; top: { fn: string; ms: number }[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the delta to the next sample (the last one has none).
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i] ?? -1);
    if (!node) continue;
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const file = url.split('/').pop() ?? '';
    const fn = `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}:${columnNumber + 1}` : ''}`;
    self.set(fn, (self.get(fn) ?? 0) + ms);
  }
  const top = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([fn, ms]) => ({ fn, ms }));
  return { totalMs: (profile.endTime - profile.startTime) / 1000, top };
}

/** A trace event (the fields read here). */
export interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly dur?: number;
  readonly args?: { readonly name?: string; readonly data?: { readonly url?: string } };
}

/** The trace events whose time is summed, with the label DevTools gives them. */
const TIMED: Readonly<Record<string, string>> = {
  'v8.compile': 'Compile Script',
  'v8.compileModule': 'Compile Module',
  'V8.CompileCode': 'Compile Code (lazy functions)',
  'v8.produceCache': 'Cache Script Code',
  'v8.produceModuleCache': 'Cache Module Code',
  'v8.evaluateModule': 'Evaluate Module',
  EvaluateScript: 'Evaluate Script',
  FunctionCall: 'Function Call',
  ParseHTML: 'Parse HTML',
  UpdateLayoutTree: 'Recalculate Style',
  Layout: 'Layout',
  Paint: 'Paint',
  MajorGC: 'Major GC',
  MinorGC: 'Minor GC',
};

/**
 * Time (ms, inclusive: an Evaluate Script contains its compile) per kind of work on the
 * renderer's main thread, and any compile or parse that ran off it, from a trace's events.
 */
export function mainThreadWork(events: readonly TraceEvent[]): Record<string, number> {
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const totals: Record<string, number> = {};
  for (const event of events) {
    const label = TIMED[event.name];
    if (event.dur === undefined) continue;
    if (label !== undefined && main && event.pid === main.pid && event.tid === main.tid)
      totals[label] = (totals[label] ?? 0) + event.dur / 1000;
    else if (event.name === 'v8.parseOnBackground' || event.name === 'v8.compileOnBackground')
      totals['compile off the main thread'] = (totals['compile off the main thread'] ?? 0) + event.dur / 1000;
  }
  return totals;
}
