import {
  type ErrorCode,
  PROBLEM_CONTENT_TYPE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type ProblemExtras,
  ProtocolError,
  problemBody,
  problemHeaders,
} from '@webbridge/contract';

/** A problem+json response as the real server renders it: the contract's body and headers. */
export function mockProblem(code: ErrorCode, detail: string, extras: ProblemExtras = {}): Response {
  const error = new ProtocolError(code, detail, extras);
  return new Response(JSON.stringify(problemBody(error)), {
    status: error.status,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      ...problemHeaders(error),
    },
  });
}

/** A JSON response with the protocol header. */
export function mockJson(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
  });
}
