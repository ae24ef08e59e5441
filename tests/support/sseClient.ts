import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One parsed server-sent event. */
export interface SseEvent {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
  /** Bytes of the frame on the wire, as the server frames it (`event:`, `id:`, `data:` lines). */
  readonly bytes: number;
  /** When it was parsed (`performance.now()`). */
  readonly at: number;
}

/** An open event stream read with fetch and a real SSE parser. */
export interface SseConnection {
  readonly response: Response;
  /** The next event, or throws after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Waits for the next event that satisfies `predicate`. */
  until(predicate: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/**
 * Opens GET /api/events with the given headers (and query, e.g. `?frames=compact`), with
 * `fetchImpl` when given (one that trusts a test authority, through a proxy).
 */
export async function openEvents(
  url: string,
  headers: Record<string, string>,
  query = '',
  fetchImpl: typeof fetch = fetch,
): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetchImpl(`${url}/api/events${query}`, { headers, signal: abort.signal });
  const queue: SseEvent[] = [];
  let wake: (() => void) | undefined;
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      const event = message.event ?? 'message';
      const frame = `event:${event}\n${message.id === undefined ? '' : `id:${message.id}\n`}data:${message.data}\n\n`;
      queue.push({
        event,
        id: message.id,
        data: message.data,
        bytes: Buffer.byteLength(frame),
        at: performance.now(),
      });
      wake?.();
    },
  });
  let ended = false;
  const endedPromise = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        parser.feed(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      // Aborted by close(): the stream simply ends.
    } finally {
      ended = true;
      wake?.();
    }
  })();

  const next = async (timeoutMs = 5000): Promise<SseEvent> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      if (ended) throw new Error('stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for an event');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return queue.shift()!;
  };
  return {
    response,
    next,
    async until(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const event = await next(Math.max(1, deadline - Date.now()));
        if (predicate(event)) return event;
      }
    },
    ended: endedPromise,
    close: () => abort.abort(),
  };
}
