import { z } from 'zod';

/** How long a pairing token can be redeemed, in milliseconds: 10 minutes. */
export const PAIRING_TOKEN_TTL_MS = 10 * 60 * 1000;

/**
 * Most devices a host keeps paired. Past it, pairing answers 422 `too_many_devices` until one
 * is forgotten: a household has a few phones, and the list must stay one a person can read.
 */
export const MAX_DEVICES = 50;

/** Longest device name, in characters (a phone's model and browser fit easily). */
export const MAX_DEVICE_NAME = 64;

/** What a paired device may do: the role of the code or link that paired it. */
const deviceRoleSchema = z
  .enum(['control', 'view'])
  .describe('`control` (everything) or `view` (state, events and media only).');

/** A device name as a person typed or the page suggested it: trimmed, 1–64 characters. */
const deviceNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_DEVICE_NAME)
  .describe('What the device is called in lists, e.g. "Chrome on Android".');

/** A paired device as the host lists it. Its credential is never part of it. */
export const deviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: deviceRoleSchema,
  /** When the device was paired (epoch milliseconds). */
  firstSeen: z.number().int(),
  /**
   * When it last presented its credential (epoch milliseconds, kept to the minute). Absent
   * when a watching device (or the view code) asks about another device: who is active when
   * is not for watchers to see.
   */
  lastSeen: z.number().int().optional(),
});
/** A paired device. */
export type Device = z.infer<typeof deviceSchema>;

/**
 * POST /api/pair: a pairing token from a link or QR code, or the access (or view) code typed
 * on the connection page, with the name the browser gives itself.
 */
export const pairRequestSchema = z.union([
  z.object({ token: z.string().min(1).max(200), name: deviceNameSchema }).strict(),
  z.object({ code: z.string().min(1).max(200), name: deviceNameSchema }).strict(),
]);
/** The body of POST /api/pair. */
export type PairRequest = z.infer<typeof pairRequestSchema>;

/**
 * A new device credential (≥ 128 random bits). Shown once: the host keeps only its hash. The
 * browser presents it as `Authorization: Bearer <credential>` wherever the code is accepted.
 */
export const pairResponseSchema = z.object({
  credential: z.string(),
  device: deviceSchema,
});
/** The answer of POST /api/pair. */
export type PairResponse = z.infer<typeof pairResponseSchema>;

/** GET /api/devices: every paired device, and which one asked (null for a code). */
export const devicesResponseSchema = z.object({
  devices: z.array(deviceSchema),
  current: z.string().nullable(),
});
/** The answer of GET /api/devices. */
export type DevicesResponse = z.infer<typeof devicesResponseSchema>;

/** POST /api/devices/forget: the device to forget. */
export const forgetDeviceRequestSchema = z.object({ deviceId: z.string().min(1).max(100) }).strict();
/** The body of POST /api/devices/forget. */
export type ForgetDeviceRequest = z.infer<typeof forgetDeviceRequestSchema>;

/** The answer of POST /api/devices/forget. */
export const forgetDeviceResponseSchema = z.object({ forgotten: z.string() });
