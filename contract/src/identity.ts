import { z } from 'zod';

/**
 * Where a send would land now. `instanceId` changes with every run of the host process;
 * `sessionRevision` increases whenever the destination of a send changes (another
 * conversation or project, a new conversation, a branch switch, an edit).
 */
export const sessionIdentitySchema = z.object({
  instanceId: z.string().min(1),
  sessionRevision: z.number().int().nonnegative(),
  conversationId: z.string().min(1),
  projectId: z.string().min(1),
});

/** The identity of the controller's current session. */
export type SessionIdentity = z.infer<typeof sessionIdentitySchema>;

/**
 * The fields a session-sensitive action carries: the identity of the state the user was
 * looking at. Any mismatch with the current identity is 409 and nothing happens.
 * `instanceId` is optional; when present it must match too.
 */
export const sessionGuardShape = {
  sessionRevision: sessionIdentitySchema.shape.sessionRevision,
  conversationId: sessionIdentitySchema.shape.conversationId,
  projectId: sessionIdentitySchema.shape.projectId,
  instanceId: sessionIdentitySchema.shape.instanceId.optional(),
} as const;

/** The identity fields as a type, for building sensitive actions. */
export type SessionGuard = z.infer<z.ZodObject<typeof sessionGuardShape>>;

/**
 * The identity fields a session-sensitive action must carry (every guard field but the
 * optional `instanceId`), derived from {@link sessionGuardShape}: an action schema that has
 * them all is session-sensitive (actions.ts).
 */
export const REQUIRED_GUARD_FIELDS = Object.keys(sessionGuardShape).filter(
  (field) => !sessionGuardShape[field as keyof typeof sessionGuardShape].isOptional(),
) as readonly (keyof SessionGuard)[];

/**
 * The session identity of a state (a projection, a snapshot, a 409's `current`): only its four
 * identity fields. It is also the guard a session-sensitive action carries, so that the action
 * lands where its person believes it does or is refused with 409.
 *
 * @example
 * ```ts
 * client.action({ action: 'stop', ...identityOf(store.getState().snapshot!) });
 * ```
 */
export function identityOf(state: SessionIdentity): SessionIdentity {
  return {
    instanceId: state.instanceId,
    sessionRevision: state.sessionRevision,
    conversationId: state.conversationId,
    projectId: state.projectId,
  };
}

/** Whether two states name the same session identity (all four fields equal). */
export function sameIdentity(a: SessionIdentity | undefined, b: SessionIdentity): boolean {
  // An identity always carries `instanceId`, so the guard rule compares all four fields.
  return a !== undefined && madeAgainst(a, b);
}

/**
 * The 409 rule: whether an action's guard names the identity current now. Any mismatch is 409
 * `session_mismatch` and nothing happens; a guard without `instanceId` is not checked on it
 * (`sessionRevision` never repeats for one host's data, so it is still safe).
 */
export function madeAgainst(guard: SessionGuard, current: SessionIdentity): boolean {
  return (
    guard.sessionRevision === current.sessionRevision &&
    guard.conversationId === current.conversationId &&
    guard.projectId === current.projectId &&
    (guard.instanceId === undefined || guard.instanceId === current.instanceId)
  );
}

/** One string per identity: a key for "has the identity a UI names changed?". */
export function identityKey(identity: SessionIdentity): string {
  return `${identity.instanceId} ${identity.sessionRevision} ${identity.projectId} ${identity.conversationId}`;
}
