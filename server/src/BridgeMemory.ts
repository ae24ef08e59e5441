import { RecentActions } from './actions/recentActions';

/**
 * What a host's bridges remember beyond one bridge's life, per run of the host (its
 * `instanceId`): the last seq handed out, and the action ids seen with their outcomes.
 *
 * A host that stops sharing and shares again builds a new bridge. Seqs name projections in
 * `Last-Event-ID`, so the new bridge must continue after the highest seq the old one used (a
 * client of the old one would otherwise be "resumed" from whatever the new one numbered the
 * same); and a phone's retry of a send whose answer was lost in between must find the first
 * outcome, not apply the send twice. So the host owns one memory and hands it to every
 * `createBridge`; a bridge without one gets a fresh memory of its own.
 *
 * @example
 * ```ts
 * const memory = new BridgeMemory();
 * let bridge = createBridge({ host, accessCode, uploadDir, memory });
 * // sharing off and on again, same run:
 * await bridge.stop();
 * bridge = createBridge({ host, accessCode, uploadDir, memory });
 * ```
 */
export class BridgeMemory {
  private readonly lastSeq = new Map<string, number>();
  private readonly actions = new Map<string, RecentActions>();

  /** The next seq for `instanceId`: 0 the first time, then one more each time. */
  nextSeq(instanceId: string): number {
    const last = this.lastSeq.get(instanceId);
    const seq = last === undefined ? 0 : last + 1;
    this.lastSeq.set(instanceId, seq);
    return seq;
  }

  /** The action ids remembered for `instanceId` (bounded, see {@link RecentActions}). */
  recentActions(instanceId: string): RecentActions {
    let recent = this.actions.get(instanceId);
    if (!recent) {
      recent = new RecentActions();
      this.actions.set(instanceId, recent);
    }
    return recent;
  }
}
