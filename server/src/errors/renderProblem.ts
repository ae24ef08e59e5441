import {
  PROBLEM_CONTENT_TYPE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  ProtocolError,
  problemBody,
  problemHeaders,
} from '@webbridge/contract';

const PROTOCOL = String(PROTOCOL_VERSION);

/** A problem answer before it is put on a transport: status, headers and JSON body. */
export interface ProblemReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * An error as an RFC 9457 problem+json answer, with the protocol header (every refusal carries
 * it, wherever it is made) and `headers` added (the access level...). The one place errors
 * become HTTP; {@link renderProblem} makes it a Fetch
 * `Response`, the Node listener's action lane writes it to Node's response.
 */
export function problemReply(error: unknown, headers: Record<string, string> = {}): ProblemReply {
  const { status, json } = serialised(error);
  return {
    status,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Cache-Control': 'no-store',
      [PROTOCOL_HEADER]: PROTOCOL,
      ...headers,
      ...problemHeaders(error),
    },
    body: json,
  };
}

/**
 * Problem bodies already written, by error. A protocol error never changes once made, and the
 * dispatcher answers every action made against the same old identity with the same 409
 * (ActionDispatcher.mismatch), so a client that keeps sending gets one serialisation, not one
 * per request. Weak: an error nobody holds any more takes its body with it.
 */
const SERIALISED = new WeakMap<ProtocolError, { readonly status: number; readonly json: string }>();

function serialised(error: unknown): { readonly status: number; readonly json: string } {
  const known = error instanceof ProtocolError ? SERIALISED.get(error) : undefined;
  if (known !== undefined) return known;
  const body = problemBody(error);
  const fresh = { status: body.status, json: JSON.stringify(body) };
  if (error instanceof ProtocolError) SERIALISED.set(error, fresh);
  return fresh;
}

/** Renders an error as an RFC 9457 problem+json response (see {@link problemReply}). */
export function renderProblem(error: unknown, headers: Record<string, string> = {}): Response {
  const reply = problemReply(error, headers);
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
