import type { ErrorCode } from '@webbridge/contract';
import { ERROR_CODES, ERROR_STATUS, problemSchema } from '@webbridge/contract';
import { BridgeClientError } from './BridgeClientError';
import { parseRetryAfter } from './parseRetryAfter';

/** The part of a response's headers read here (a `Headers`, or an XMLHttpRequest adapter). */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The {@link BridgeClientError} for a non-success answer. A problem+json body gives the code,
 * detail and, on 409, the current identity; without one (a proxy's error page) the code is
 * the protocol's code for that status when there is exactly one, else `bad_response`.
 * `Retry-After` becomes {@link BridgeClientError.retryAfterSeconds}.
 */
export function errorFromResponse(status: number, body: unknown, headers?: HeaderReader): BridgeClientError {
  const retryAfterSeconds = parseRetryAfter(headers?.get('retry-after'));
  const problem = problemSchema.safeParse(body);
  if (problem.success) {
    return new BridgeClientError({
      code: problem.data.code,
      status,
      detail: problem.data.detail,
      problem: problem.data,
      retryAfterSeconds,
    });
  }
  const codes = ERROR_CODES.filter((code: ErrorCode) => ERROR_STATUS[code] === status);
  const only = codes.length === 1 ? codes[0] : undefined;
  return new BridgeClientError({
    code: only ?? 'bad_response',
    status,
    detail: `HTTP ${status}`,
    retryAfterSeconds,
  });
}

/** The {@link BridgeClientError} for a request that got no answer. */
export function errorFromFailure(error: unknown, signal: AbortSignal | undefined): BridgeClientError {
  if (error instanceof BridgeClientError) return error;
  if (signal?.aborted) {
    return new BridgeClientError({ code: 'aborted', status: 0, detail: 'request aborted' }, { cause: error });
  }
  const detail = error instanceof Error ? error.message : 'network error';
  return new BridgeClientError({ code: 'network', status: 0, detail }, { cause: error });
}
