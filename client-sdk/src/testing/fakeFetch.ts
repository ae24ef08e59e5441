/** Test helpers: a scripted fetch and SSE responses. Not exported from the package. */

/** One recorded request. */
export interface RecordedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;
}

/** How the fake answers one request. */
export type Responder = (request: RecordedRequest) => Response | Promise<Response>;

/**
 * A fetch that answers with `responders` in order (the last one repeats) and records every
 * request.
 */
export function scriptedFetch(responders: Responder[]): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetchFn = async (input: string | URL | Request, init?: RequestInit) => {
    const request: RecordedRequest = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body,
      signal: init?.signal ?? undefined,
    };
    requests.push(request);
    const responder = responders[Math.min(requests.length - 1, responders.length - 1)];
    if (responder === undefined) throw new Error('no responder');
    return responder(request);
  };
  return { fetch: fetchFn as typeof fetch, requests };
}

/** One SSE frame. */
export function frame(event: string, data: unknown, id?: number): string {
  const json = typeof data === 'string' ? data : JSON.stringify(data);
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${json}\n\n`;
}

/**
 * A `text/event-stream` response that sends `chunks`, then either ends or stays open until
 * the request's signal aborts (as a real fetch body does).
 */
export function sseResponse(chunks: string[], signal: AbortSignal | undefined, keepOpen = false): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!keepOpen) {
        controller.close();
        return;
      }
      const onAbort = () => {
        try {
          controller.error(signal?.reason ?? new Error('aborted'));
        } catch {
          // Already closed.
        }
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** A JSON (or problem+json) response. */
export function jsonResponse(status: number, body: unknown, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
}

/** Resolves when `predicate` holds, polling; rejects after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
