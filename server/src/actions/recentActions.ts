import type { ActionResponse } from '@webbridge/contract';
import type { HostAdapter } from '../adapter';

/** How an action ended: its response, or what it threw. */
export type Outcome = { ok: true; value: ActionResponse } | { ok: false; error: unknown };

/** A remembered action id: when it was first seen, for which action, and how it ended. */
export interface RecentAction {
  readonly at: number;
  readonly action: string;
  readonly outcome: Promise<Outcome>;
}

const byInstance = new Map<string, Map<string, RecentAction>>();

/**
 * The remembered action ids of a host's run (its instanceId), shared by every bridge of this
 * process built on it, even through a new adapter object. A host that stops sharing and
 * shares again builds a new bridge; a phone's retry of a send whose answer was lost in
 * between must still find the first outcome there, not apply the send a second time. The
 * memory is bounded per run (the dispatcher forgets old ids); one run is one entry here.
 */
export function recentActionsOf(host: HostAdapter): Map<string, RecentAction> {
  const { instanceId } = host.readState();
  let recent = byInstance.get(instanceId);
  if (!recent) {
    recent = new Map();
    byInstance.set(instanceId, recent);
  }
  return recent;
}
