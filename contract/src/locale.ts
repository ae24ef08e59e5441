import { z } from 'zod';

/**
 * What the connection page needs before the user has a code: language, its strings and the
 * protocol version. Nothing about the controller's state.
 */
export const localeSchema = z.object({
  language: z.string(),
  strings: z.record(z.string()),
  protocol: z.number().int(),
});
/** The public locale document. */
export type Locale = z.infer<typeof localeSchema>;
