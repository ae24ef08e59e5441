/**
 * Seqs name projections in `Last-Event-ID: <instanceId>.<seq>`, so within one run of a host
 * (one instanceId) a seq must never name two different projections. A host that stops its
 * bridge and builds another (sharing turned off and on) keeps its instanceId; if the new
 * bridge counted from zero again, a client of the old one would be "resumed" from whatever
 * the new bridge numbered the same, and apply deltas to the wrong base. So every bridge of
 * this process takes its seqs from one counter per instanceId: the first bridge counts
 * 0, 1, 2, … as before; a later (or concurrent) one continues after the highest seq taken.
 */
const lastTaken = new Map<string, number>();

/** The next seq for `instanceId` in this process: 0 the first time, then one more each time. */
export function nextSeq(instanceId: string): number {
  const last = lastTaken.get(instanceId);
  const seq = last === undefined ? 0 : last + 1;
  lastTaken.set(instanceId, seq);
  return seq;
}
