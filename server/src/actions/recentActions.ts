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

const byHost = new WeakMap<HostAdapter, Map<string, RecentAction>>();

/**
 * The remembered action ids of a host, shared by every bridge built on it. A host that stops
 * sharing and shares again builds a new bridge; a phone's retry of a send whose answer was
 * lost in between must still find the first outcome there, not apply the send a second time.
 */
export function recentActionsOf(host: HostAdapter): Map<string, RecentAction> {
  let recent = byHost.get(host);
  if (!recent) {
    recent = new Map();
    byHost.set(host, recent);
  }
  return recent;
}
