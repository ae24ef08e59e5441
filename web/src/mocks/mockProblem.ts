import {
  ERROR_STATUS,
  ERROR_TITLE,
  type ErrorCode,
  PROBLEM_CONTENT_TYPE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type Problem,
  problemType,
} from '@webbridge/contract';

/** A problem+json response as the real server renders it. */
export function mockProblem(code: ErrorCode, detail: string, extra: Partial<Problem> = {}): Response {
  const status = ERROR_STATUS[code];
  const body: Problem = { type: problemType(code), title: ERROR_TITLE[code], status, detail, code, ...extra };
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      ...(code === 'unauthorized' ? { 'WWW-Authenticate': 'Bearer' } : {}),
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
