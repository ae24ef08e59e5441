import {
  actionResponseSchema,
  appendFrameSchema,
  localeSchema,
  PROBLEM_CONTENT_TYPE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  problemSchema,
  type SessionIdentity,
  type Snapshot,
  snapshotSchema,
  stateEventSchema,
  uploadResponseSchema,
} from '@webbridge/contract';
import type { Resolved } from './resolvePlan';
import { parseRaw, type WireResponse } from './wire';

/** What one answer showed besides its violations: identities seen, the state, a stream position. */
export interface Observed {
  readonly violations: string[];
  readonly identities: SessionIdentity[];
  readonly snapshot?: Snapshot;
  readonly lastEventId?: string;
  /** The action's result, when it was applied (200). */
  readonly result?: unknown;
}

/** Statuses a schema-valid action may get from a host in any state (never 5xx, 401, 415). */
const VALID_ACTION_STATUSES = new Set([200, 400, 403, 404, 409, 413, 422]);
const VALID_UPLOAD_STATUSES = new Set([201, 404, 413]);

function json(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Checks an answer against the rules that hold whatever the host's state: never 5xx, always an
 * answer, every answer hardened (nosniff, no framing), every error problem+json with the
 * protocol header and a matching status, every
 * success in the contract's shape. With `exact` (a lone request against a known state) it also
 * holds the route to what the contract says that request gets.
 */
export function checkResponse(r: Resolved, response: WireResponse, exact: boolean): Observed {
  const v: string[] = [];
  const identities: SessionIdentity[] = [];
  const { status, headers, body } = response;
  if (status === 0) {
    v.push(
      `no answer (${response.error ?? 'unknown'})${response.reusedSocket ? ' on a kept-alive socket the server had left open' : ''}`,
    );
    if (response.previous) v.push(`that socket's previous exchange: ${response.previous}`);
    return { violations: v, identities };
  }
  if (response.error) v.push(`the answer broke off: ${response.error}`);
  if (status >= 500) v.push(`${status}: a server error`);
  const head = r.wire.method === 'HEAD';
  if (
    r.wire.target.startsWith('/api/') &&
    headers[PROTOCOL_HEADER.toLowerCase()] !== String(PROTOCOL_VERSION)
  )
    v.push(`${status} without ${PROTOCOL_HEADER}: ${PROTOCOL_VERSION}`);
  // Every answer, whoever wrote it (server/src/guards/hardenResponse.ts).
  if (headers['x-content-type-options'] !== 'nosniff' || headers['x-frame-options'] !== 'DENY')
    v.push(`${status} without nosniff and X-Frame-Options: DENY`);
  if (status >= 400) v.push(...problemViolations(status, headers, head ? undefined : body));
  if (status >= 400 && status === 409 && !head) {
    const current = problemSchema.safeParse(json(body)).data?.current;
    if (current) identities.push(current);
  }
  let snapshot: Snapshot | undefined;
  let lastEventId: string | undefined;
  let result: unknown;
  const ok = status >= 200 && status < 300;
  switch (r.route) {
    case 'locale':
      if (exact && r.clean && r.wire.method === 'GET' && status !== 200) v.push(`GET /api/locale: ${status}`);
      if (ok && !head && !localeSchema.safeParse(json(body)).success) v.push('locale body off the contract');
      break;
    case 'state':
      if (exact && r.clean && r.wire.method === 'GET' && status !== 200)
        v.push(`GET /api/state with the code: ${status}`);
      if (ok && !head) {
        const parsed = snapshotSchema.safeParse(json(body));
        if (!parsed.success) v.push(`snapshot off the contract: ${parsed.error.issues[0]?.message}`);
        else {
          snapshot = parsed.data;
          identities.push(parsed.data);
        }
      }
      break;
    case 'action':
      if (r.clean && exact) {
        if (r.action === undefined && status !== 400)
          v.push(`an action the schema refuses got ${status}, not 400`);
        if (r.action !== undefined && !VALID_ACTION_STATUSES.has(status))
          v.push(`a valid action got ${status}`);
      }
      if (status === 200) {
        const parsed = actionResponseSchema.safeParse(json(body));
        if (!parsed.success) v.push('action response off the contract');
        else if (r.action && parsed.data.action !== r.action.action)
          v.push(`answered as ${parsed.data.action}, sent ${r.action.action}`);
        else result = parsed.data.result;
        if (!r.action) v.push('an action the schema refuses was applied (200)');
      }
      break;
    case 'events':
      if (exact && r.clean && status !== 200) v.push(`GET /api/events with the code: ${status}`);
      if (status === 200) {
        if (!(headers['content-type'] ?? '').startsWith('text/event-stream'))
          v.push('event stream without text/event-stream');
        const states = response.events.filter((e) => e.event === 'state');
        for (const event of states) {
          const data = json(Buffer.from(event.data));
          // A named append keeps its compact data, `[base, text]`.
          const parsed = stateEventSchema.safeParse(data);
          if (parsed.data?.kind === 'snapshot') identities.push(parsed.data.snapshot);
          else if (!parsed.success && !appendFrameSchema.safeParse(data).success)
            v.push(`state event off the contract: ${event.data.slice(0, 120)}`);
        }
        if (r.expectSnapshotFirst && exact) {
          const first = states[0]
            ? stateEventSchema.safeParse(json(Buffer.from(states[0].data))).data
            : undefined;
          if (first?.kind !== 'snapshot')
            v.push(`a new stream did not start with a snapshot (${states.length} state events)`);
        }
        lastEventId = response.events.findLast((e) => e.id !== undefined)?.id;
      }
      break;
    case 'upload':
      if (exact && r.clean) {
        // The server narrows the contract's name (trimmed, last path segment, no control
        // characters); a 400 that names the query field it refused is that, not a defect.
        const namesField =
          status === 400 && (problemSchema.safeParse(json(body)).data?.issues?.length ?? 0) > 0;
        if (r.uploadValid && !VALID_UPLOAD_STATUSES.has(status) && !namesField)
          v.push(`a valid upload got ${status}`);
        if (!r.uploadValid && ok) v.push(`an invalid upload got ${status}`);
      }
      if (status === 201) {
        const parsed = uploadResponseSchema.safeParse(json(body));
        if (!parsed.success) v.push('upload response off the contract');
        else result = parsed.data;
      }
      break;
    case 'media':
      if (exact && r.clean && r.knownMedia && status !== 200)
        v.push(`a media id from the state got ${status}`);
      if (status === 200) {
        const length = Number(headers['content-length']);
        if (r.knownMedia && length !== r.knownMedia.size)
          v.push(`media of ${length} bytes, attachment says ${r.knownMedia.size}`);
        if (!head && body.length !== length)
          v.push(`media body ${body.length} bytes, Content-Length ${length}`);
      }
      break;
    case 'misc':
    case 'raw':
      break;
    default: {
      const never: never = r.route;
      throw new Error(`unknown route ${String(never)}`);
    }
  }
  return {
    violations: v,
    identities,
    ...(snapshot ? { snapshot } : {}),
    ...(lastEventId === undefined ? {} : { lastEventId }),
    ...(result === undefined ? {} : { result }),
  };
}

function problemViolations(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: Buffer | undefined,
): string[] {
  const v: string[] = [];
  const type = (headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith(PROBLEM_CONTENT_TYPE)) v.push(`${status} is not problem+json (${type || 'no type'})`);
  if (headers[PROTOCOL_HEADER.toLowerCase()] !== String(PROTOCOL_VERSION))
    v.push(`${status} without ${PROTOCOL_HEADER}`);
  if (status === 401 && !/^Bearer/i.test(headers['www-authenticate'] ?? ''))
    v.push('401 without WWW-Authenticate: Bearer');
  if (body !== undefined) {
    const problem = problemSchema.safeParse(json(body));
    if (!problem.success) v.push(`${status} body is not a problem: ${body.toString('utf8').slice(0, 120)}`);
    else if (problem.data.status !== status)
      v.push(`problem says ${problem.data.status}, status line ${status}`);
  }
  return v;
}

/** Checks what a raw socket got back: an HTTP answer that is not 5xx, and a problem if an error. */
export function checkRaw(bytes: Buffer): string[] {
  if (bytes.length === 0) return ['no answer to a raw request'];
  const parsed = parseRaw(bytes);
  if (!parsed || parsed.status < 100)
    return [`not an HTTP answer: ${JSON.stringify(bytes.subarray(0, 80).toString('latin1'))}`];
  const v: string[] = [];
  if (parsed.status >= 500) v.push(`${parsed.status}: a server error`);
  if (parsed.status >= 400)
    v.push(...problemViolations(parsed.status, parsed.headers, parsed.complete ? parsed.body : undefined));
  return v;
}
