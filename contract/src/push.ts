import { z } from 'zod';
import { approvalAskSchema } from './approvalAsk';
import { approvalDecisionSchema } from './snapshot';

/**
 * A browser's push subscription (`PushSubscription.toJSON()` without its `expirationTime`, which
 * browsers leave null), as a paired device hands it to
 * the host. The host will POST to `endpoint`: it must be an `https:` URL on a public address
 * (checked also after DNS resolution, refused with 400 `invalid_request` naming what is wrong).
 */
export const pushSubscriptionSchema = z
  .object({
    endpoint: z.string().min(1).max(2048),
    keys: z
      .object({
        /**
         * The browser's P-256 public key, base64url (65 bytes → 87 characters, padded 88). The
         * host also checks that it decodes to an uncompressed point (400 naming the key).
         */
        p256dh: z
          .string()
          .min(86)
          .max(88)
          .regex(/^[A-Za-z0-9_=-]*$/),
        /** The 16-byte authentication secret, base64url (22 characters, padded 24); checked likewise. */
        auth: z
          .string()
          .min(22)
          .max(24)
          .regex(/^[A-Za-z0-9_=-]*$/),
      })
      .strict(),
  })
  .strict();
/** A browser's push subscription. */
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/** What a device wants to be told by push. Each is its own choice. */
export const pushChoicesSchema = z
  .object({
    /** An approval waits. */
    approvals: z.boolean(),
    /** A reply finished or failed. */
    replies: z.boolean(),
  })
  .strict();
/** What a device wants to be told by push. */
export type PushChoices = z.infer<typeof pushChoicesSchema>;

/**
 * The decrypted body of a push message (RFC 8291), read by the page's service worker. It holds
 * no credential: an approval's `token` can decide that one approval once, and nothing else.
 * `tag` is the notification's tag: one notification per approval, replaced when it is answered.
 */
export const pushPayloadSchema = z.discriminatedUnion('kind', [
  /**
   * An approval waits: its tool, what the notification asks (`ask`, which the service worker
   * says in the page's language) and the same in English (`summary`). Only the host's own tools
   * name a file or a program; any other tool is named alone (never its arguments); an ACP
   * agent's question names its diff's file or the agent, never the agent's title for the call.
   */
  z.object({
    kind: z.literal('approval'),
    tag: z.string(),
    approvalId: z.string(),
    conversationId: z.string(),
    tool: z.string(),
    ask: approvalAskSchema,
    /** `ask` in English, at most 120 characters: "Write notes.md?", "Run `npm`?", "Use github__create_issue?". */
    summary: z.string().max(120),
    /** Decides this approval once through POST /api/push/decide; void once it is answered. */
    token: z.string(),
  }),
  /** The approval was answered (here or elsewhere): the notification is replaced by what happened. */
  z.object({
    kind: z.literal('answered'),
    tag: z.string(),
    approvalId: z.string(),
    tool: z.string(),
    decided: approvalDecisionSchema,
  }),
  /** The approval no longer waits without an answer (its reply was stopped): the notification goes. */
  z.object({ kind: z.literal('withdrawn'), tag: z.string(), approvalId: z.string() }),
  /** A reply finished or failed. */
  z.object({
    kind: z.literal('reply'),
    tag: z.string(),
    outcome: z.enum(['finished', 'failed']),
    conversationId: z.string(),
    /**
     * The conversation's title, at most 120 characters; only from a host started with reply
     * titles on (the title is the first line of the conversation's first message).
     */
    title: z.string().max(120).optional(),
  }),
]);
/** The decrypted body of a push message. */
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** POST /api/push/decide: a service worker answers an approval with its approval token. */
export const pushDecisionSchema = z
  .object({
    /** The approval token from the push payload (≥ 128 random bits, base64url). */
    token: z.string().min(22).max(64),
    decision: z.enum(['allow', 'deny']),
  })
  .strict();
/** The body of POST /api/push/decide. */
export type PushDecision = z.infer<typeof pushDecisionSchema>;
