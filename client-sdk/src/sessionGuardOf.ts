import type { SessionGuard, Snapshot } from '@webbridge/contract';

/**
 * The identity fields of a session-sensitive action, taken from the state the user is looking
 * at, so that a send lands where the user believes it does or is refused with 409.
 *
 * @example
 * ```ts
 * client.action({ action: 'stop', ...sessionGuardOf(store.getState().snapshot!) });
 * ```
 */
export function sessionGuardOf(snapshot: Snapshot): SessionGuard {
  return {
    sessionRevision: snapshot.sessionRevision,
    conversationId: snapshot.conversationId,
    projectId: snapshot.projectId,
    instanceId: snapshot.instanceId,
  };
}
