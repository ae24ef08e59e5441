import type { CDPSession } from 'playwright-core';

/** The timeline categories every slow-phone bench traces (tasks, frames, their slices). */
const TIMELINE = ['__metadata', 'devtools.timeline', 'disabled-by-default-devtools.timeline'];

/**
 * Starts a Chromium trace on `cdp` (the timeline, plus `extra` categories); the returned
 * function ends it and resolves with its events, typed as the caller reads them.
 */
export async function startTimelineTrace<T = object>(
  cdp: CDPSession,
  extra: readonly string[] = [],
): Promise<() => Promise<T[]>> {
  const events: T[] = [];
  const collect = (data: { value: object[] }) => events.push(...(data.value as unknown as T[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: [...TIMELINE, ...extra] },
  });
  return async () => {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
    return events;
  };
}
