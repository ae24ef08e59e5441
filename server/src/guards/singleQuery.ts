import { ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';

/**
 * The one value of a query parameter, or undefined when it is absent. A parameter given twice
 * (`?id=A&id=B`) is 400 `invalid_request`: which one counts would be a guess, and a proxy or
 * a log may have guessed differently.
 */
export function singleQuery(c: Context, name: string): string | undefined {
  const values = c.req.queries(name);
  if (values !== undefined && values.length > 1) {
    throw new ProtocolError('invalid_request', `Give ${name} once.`, {
      issues: [{ path: [name], message: 'given more than once' }],
    });
  }
  return values?.[0];
}
