import type { ApiFetcher } from '@ts-rest/core';
import { ACCESS_HEADER, type AccessLevel, parseJsonSafely } from '@webbridge/contract';
import { BridgeClientError } from './BridgeClientError';
import { errorFromFailure } from './errorFromResponse';

/**
 * The transport under the contract's ts-rest client. The wire is parsed here, not by ts-rest:
 * prototype keys are dropped while parsing and a failed request becomes a BridgeClientError
 * instead of a bare TypeError. Every answer's `X-Webbridge-Access` goes to `onAccess`.
 */
export function restFetcher(fetchFn: typeof fetch, onAccess: (level: AccessLevel) => void): ApiFetcher {
  return async ({ path, method, headers, body, fetchOptions }) => {
    const init: RequestInit = { ...fetchOptions, method, headers };
    if (body !== undefined) init.body = body;
    const signal = fetchOptions?.signal ?? undefined;
    try {
      const response = await fetchFn(path, init);
      const level = response.headers.get(ACCESS_HEADER);
      if (level === 'control' || level === 'view') onAccess(level);
      const text = await response.text();
      const type = response.headers.get('content-type') ?? '';
      return {
        status: response.status,
        body: type.includes('json') ? parseJson(text, response.status) : text,
        headers: response.headers,
      };
    } catch (error) {
      throw errorFromFailure(error, signal);
    }
  };
}

function parseJson(text: string, status: number): unknown {
  try {
    return parseJsonSafely(text);
  } catch (cause) {
    throw new BridgeClientError({ code: 'bad_response', status, detail: 'invalid JSON' }, { cause });
  }
}
