import { ModelError } from '../ModelError';

/** Longest provider message quoted in a reply's error. */
const MAX_DETAIL = 300;

/**
 * A readable error for an HTTP error answer of the endpoint: the status and the `error.message`
 * of OpenAI's error body (or the start of a plain-text body), with the API key cut out in case
 * the endpoint echoes it.
 */
export async function httpFailure(response: Response, apiKey: string | undefined): Promise<ModelError> {
  let detail = '';
  try {
    const text = await response.text();
    detail = errorMessageOf(text) ?? text;
  } catch {
    // The body could not be read; the status alone still says what happened.
  }
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const reason = clean(detail, apiKey);
  return new ModelError(`The model endpoint answered ${status}${reason === '' ? '.' : `: ${reason}`}`);
}

/**
 * A readable error for a request that failed without an HTTP answer: refused or unreachable
 * endpoint, timeout, or a broken connection mid-stream.
 */
export function networkFailure(
  error: unknown,
  origin: string,
  timedOutAfterMs: number | undefined,
): ModelError {
  if (error instanceof ModelError) return error;
  if (timedOutAfterMs !== undefined) {
    return new ModelError(`The model endpoint at ${origin} sent nothing for ${timedOutAfterMs} ms; gave up.`);
  }
  const code = causeCode(error);
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'unknown host'
        : code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
          ? 'the connection was cut'
          : (code ?? 'network error');
  return new ModelError(`Could not reach the model endpoint at ${origin} (${why}).`);
}

/** Removes the key and control characters from provider text and keeps it short. */
export function clean(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey !== undefined && apiKey !== '') out = out.split(apiKey).join('[redacted]');
  // Control characters from a hostile endpoint could rewrite the terminal or the page.
  out = Array.from(out, (ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? ' ' : ch))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
  return out.length > MAX_DETAIL ? `${out.slice(0, MAX_DETAIL - 1)}…` : out;
}

function errorMessageOf(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== 'object' || body === null) return undefined;
    const error = (body as { error?: unknown }).error;
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null) {
      const message = (error as { message?: unknown }).message;
      if (typeof message === 'string') return message;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function causeCode(error: unknown): string | undefined {
  // undici wraps the socket error: TypeError('fetch failed') with `cause.code`.
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
