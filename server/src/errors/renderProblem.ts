import { ERROR_TITLE, PROBLEM_CONTENT_TYPE, type Problem, problemType } from '@webbridge/contract';
import { BridgeError } from './BridgeError';

/** Builds the problem+json body of an error. Unknown errors become a bare 500. */
export function problemBody(error: unknown): Problem {
  const known = error instanceof BridgeError ? error : new BridgeError('internal', 'Something went wrong.');
  return {
    type: problemType(known.code),
    title: ERROR_TITLE[known.code],
    status: known.status,
    detail: known.message,
    code: known.code,
    ...(known.extras.issues ? { issues: known.extras.issues } : {}),
    ...(known.extras.current ? { current: known.extras.current } : {}),
  };
}

/** Renders an error as an RFC 9457 problem+json response. The one place errors become HTTP. */
export function renderProblem(error: unknown, headers: Record<string, string> = {}): Response {
  const body = problemBody(error);
  const extra: Record<string, string> = { ...headers };
  if (error instanceof BridgeError) {
    if (error.code === 'unauthorized') extra['WWW-Authenticate'] = 'Bearer';
    if (error.extras.retryAfter !== undefined) extra['Retry-After'] = String(error.extras.retryAfter);
  }
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...extra },
  });
}
