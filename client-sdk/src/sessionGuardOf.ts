import type { SessionGuard, SessionIdentity } from '@webbridge/contract';

/**
 * The identity fields of a session-sensitive action, taken from the state the user is looking
 * at (or a destination they confirmed), so that a send lands where the user believes it does
 * or is refused with 409. Only the four identity fields are copied.
 *
 * @example
 * ```ts
 * client.action({ action: 'stop', ...sessionGuardOf(store.getState().snapshot!) });
 * ```
 */
export function sessionGuardOf(snapshot: SessionIdentity): SessionGuard {
  return {
    sessionRevision: snapshot.sessionRevision,
    conversationId: snapshot.conversationId,
    projectId: snapshot.projectId,
    instanceId: snapshot.instanceId,
  };
}
