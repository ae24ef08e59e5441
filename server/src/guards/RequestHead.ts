import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * What the guards read of a request, before any body: the method, the target as sent, the
 * headers (parsed, and raw for duplicates) and the client. Node's `IncomingMessage` is one, so
 * the guards run the same on a request that reaches Hono and on one the Node listener serves
 * itself (adapters/actionLane.ts): one set of checks whichever way a request travels.
 */
export interface RequestHead {
  readonly method?: string | undefined;
  /** The request target as sent (path and query); undefined when not behind Node. */
  readonly url?: string | undefined;
  /** Lower-case names; Node keeps the first of two single-value headers. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Every header line as sent, name and value alternating. */
  readonly rawHeaders: readonly string[];
  /** Whether the whole body has arrived. */
  readonly complete: boolean;
  readonly socket?: { readonly remoteAddress?: string | undefined } | null;
}

/** The Node request behind a context; undefined outside Node (`app.request` in unit tests). */
export function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * The head of a Hono request: the Node request itself behind Node; otherwise (`app.request`)
 * one made from the Fetch request, whose `Headers` has already merged duplicates, so one line
 * per name is all the guards can see there.
 */
export function headOf(c: Context): RequestHead {
  const incoming = incomingOf(c);
  if (incoming) return incoming;
  const headers: Record<string, string> = {};
  const rawHeaders: string[] = [];
  c.req.raw.headers.forEach((value, name) => {
    headers[name] = value;
    rawHeaders.push(name, value);
  });
  // Outside Node (a page, a worker) Host is a forbidden header name: the Fetch standard takes
  // it from the URL, and so does the bridge; the Host guard then checks it as any other.
  // (Not a line the client sent: the header-line count is the request's own.)
  if (headers.host === undefined) headers.host = new URL(c.req.url).host;
  return { method: c.req.method, headers, rawHeaders, complete: true };
}
