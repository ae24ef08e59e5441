import { PROBLEM_CONTENT_TYPE, problemBody, problemHeaders } from '@webbridge/contract';

/** Renders an error as an RFC 9457 problem+json response. The one place errors become HTTP. */
export function renderProblem(error: unknown, headers: Record<string, string> = {}): Response {
  const body = problemBody(error);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Cache-Control': 'no-store',
      ...headers,
      ...problemHeaders(error),
    },
  });
}
