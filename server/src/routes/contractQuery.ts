import type { Context } from 'hono';
import type { z } from 'zod';
import { singleQuery } from '../guards/singleQuery';

/**
 * The query of a request checked against its route's schema in the contract, so the rule a
 * client, the mocks and the docs see is the rule the server applies. Every parameter the
 * schema names must come at most once (see guards/singleQuery.ts); others are ignored, as
 * the schema strips them.
 */
export function contractQuery<S extends z.AnyZodObject>(
  c: Context,
  schema: S,
): z.SafeParseReturnType<unknown, z.infer<S>> {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = singleQuery(c, name);
    if (value !== undefined) raw[name] = value;
  }
  return schema.safeParse(raw);
}

/** The issues of a failed parse, as a 400 `invalid_request` lists them (queries and bodies). */
export function issuesOf(error: z.ZodError): { path: (string | number)[]; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
}
