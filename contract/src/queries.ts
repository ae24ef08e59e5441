import { z } from 'zod';

/** Text without control characters (C0 and DEL): what a browser may put in a name or an id. */
const printable = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'no control characters');

/**
 * The query of POST /api/upload: the file's name (the server keeps its last path segment) and,
 * optionally, the conversation it belongs to (default: the current one). Each given once.
 */
export const uploadQuerySchema = z.object({
  name: printable(1, 255),
  conversationId: printable(1, 200).optional(),
});

/**
 * The longest media id the server looks up. Ids it hands out are 128 random bits in base64url
 * (22 characters); anything much longer is not one, and is refused before a lookup.
 */
export const MAX_MEDIA_ID = 64;

/** The query of GET /api/media: the media id, the credential for one file. */
export const mediaQuerySchema = z.object({ id: z.string().min(1).max(MAX_MEDIA_ID) });
