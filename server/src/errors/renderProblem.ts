import { PROBLEM_CONTENT_TYPE, problemBody, problemHeaders } from '@webbridge/contract';

/** A problem answer before it is put on a transport: status, headers and JSON body. */
export interface ProblemReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * An error as an RFC 9457 problem+json answer, with `headers` added (the protocol header, the
 * access level...). The one place errors become HTTP; {@link renderProblem} makes it a Fetch
 * `Response`, the Node listener's action lane writes it to Node's response.
 */
export function problemReply(error: unknown, headers: Record<string, string> = {}): ProblemReply {
  const body = problemBody(error);
  return {
    status: body.status,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Cache-Control': 'no-store',
      ...headers,
      ...problemHeaders(error),
    },
    body: JSON.stringify(body),
  };
}

/** Renders an error as an RFC 9457 problem+json response (see {@link problemReply}). */
export function renderProblem(error: unknown, headers: Record<string, string> = {}): Response {
  const reply = problemReply(error, headers);
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}
