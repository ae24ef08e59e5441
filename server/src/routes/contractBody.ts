import { fastParser, ProtocolError } from '@webbridge/contract';
import type { Context } from 'hono';
import type { z } from 'zod';
import { incomingOf, type RequestHead } from '../guards/RequestHead';
import { issuesOf } from './contractQuery';
import { readIncoming, readJsonBody } from './readJsonBody';

/** Reads a request's body as text, refusing (413) past `max` bytes. */
export type ReadBody = (max: number) => Promise<string>;

/** How a route's body is bounded and refused. */
export interface BodyRule {
  /** The most bytes the body may have: a larger one is refused (413), a declared length before a byte is read. */
  readonly max: number;
  /**
   * The detail of the 400 for a body that does not match the schema (its `issues` say where).
   * @default 'The request does not match the protocol.'
   */
  readonly detail?: string;
}

/** Reads and checks one request's body; throws its refusal (400, 413) as a ProtocolError. */
export type ContractBody<T> = (head: RequestHead, read: ReadBody) => Promise<T>;

/**
 * The JSON body of a request checked against its route's schema in the contract (the `body` of
 * the route in `contract`), as {@link contractQuery} checks a query: at most `rule.max` bytes
 * (413), JSON (400 "The body is not valid JSON.", no issues), then the schema (400 with zod's
 * issues). Built once per route: the schema's fast check (`fastParser`) is derived here, not per
 * request. The media type (415) and Content-Length (411) are the route's contract headers,
 * checked before (guards/contractHeaders.ts). It takes the head and a reader rather than a
 * Hono context so the Node listener's action lane (adapters/actionLane.ts) reads bodies the same
 * way; a Hono route passes {@link bodyOf}.
 *
 * @example
 * const body = contractBody(contract.pair.body, { max: 4096 });
 * const request = await body(headOf(c), bodyOf(c));
 */
export function contractBody<S extends z.ZodTypeAny>(schema: S, rule: BodyRule): ContractBody<z.output<S>> {
  const parse = fastParser(schema);
  const detail = rule.detail ?? 'The request does not match the protocol.';
  return async (head, read) => {
    const parsed = parse(await readJsonBody(head, rule.max, read));
    if (parsed.success) return parsed.data;
    throw new ProtocolError('invalid_request', detail, { issues: issuesOf(parsed.error) });
  };
}

/**
 * How a Hono route reads its body: straight from Node's request behind Node (refused as soon as
 * it runs over, see readIncoming), else from the Fetch request (`app.request`, the page).
 */
export function bodyOf(c: Context): ReadBody {
  const incoming = incomingOf(c);
  return incoming ? (max) => readIncoming(incoming, max) : () => c.req.text();
}
