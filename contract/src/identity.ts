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

/** The names of the identity fields every session-sensitive action carries. */
export const SESSION_GUARD_FIELDS = ['sessionRevision', 'conversationId', 'projectId'] as const;
