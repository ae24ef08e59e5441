import type { SyncState } from '@webbridge/client-sdk';
import {
  type EventFrames,
  eventsQuerySchema,
  type HeartbeatEvent,
  heartbeatFrame,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  type StreamEvent,
  streamEventFrame,
} from '@webbridge/contract';
import { mockProblem } from './mockProblem';

/**
 * One SSE frame of `event`, framed as the bridge frames it: every update an `event: state`,
 * except appends on a stream that asked for `?frames=compact` (no event line).
 */
function mockFrame(event: StreamEvent, frames: EventFrames, heartbeatMs: number): string {
  return streamEventFrame(event.kind === 'snapshot' ? { ...event, heartbeatMs } : event, frames);
}

/** The snapshot event of a state, as a new connection (or a reconfiguration) receives it. */
export function mockSnapshotEvent(sync: SyncState): StreamEvent {
  return { kind: 'snapshot', seq: sync.seq, signature: sync.signature, snapshot: sync.snapshot };
}

/** The open event streams of the mock backend. */
export interface MockEventStream {
  /** Sends an event to every open stream, forgetting those that have closed. */
  write(event: StreamEvent): void;
  /** Opens a stream for `request` that starts with `first` (a 400 for an unknown frame form). */
  open(request: Request, url: URL, first: StreamEvent): Response;
  /** Ends every stream with an error (a service restart, as the page sees it). */
  drop(): void;
}

interface OpenStream {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  readonly frames: EventFrames;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Creates the mock backend's set of SSE streams, each beating after `heartbeatMs` of quiet. */
export function createMockEventStream(heartbeatMs: number): MockEventStream {
  const streams = new Set<OpenStream>();
  const encoder = new TextEncoder();
  const close = (stream: OpenStream) => {
    clearTimeout(stream.timer);
    streams.delete(stream);
  };
  const send = (stream: OpenStream, text: string) => {
    clearTimeout(stream.timer);
    try {
      stream.controller.enqueue(encoder.encode(text));
    } catch {
      close(stream);
      return;
    }
    // Like the bridge, a heartbeat measures idleness: every frame puts the next one off.
    stream.timer = setTimeout(() => {
      const beat: HeartbeatEvent = { t: Date.now(), heartbeatMs };
      send(stream, heartbeatFrame(beat));
    }, heartbeatMs);
  };
  return {
    write(event) {
      for (const stream of streams) send(stream, mockFrame(event, stream.frames, heartbeatMs));
    },
    open(request, url, first) {
      const query = eventsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
      if (!query.success || url.searchParams.getAll('frames').length > 1) {
        return mockProblem('invalid_request', 'frames is named (the default) or compact, given once.');
      }
      const frames = query.data.frames ?? 'named';
      let own: OpenStream | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          own = { controller, frames, timer: undefined };
          streams.add(own);
          send(own, mockFrame(first, frames, heartbeatMs));
        },
        cancel() {
          if (own) close(own);
        },
      });
      request.signal.addEventListener('abort', () => {
        if (own) close(own);
      });
      return new Response(body, {
        headers: { 'Content-Type': 'text/event-stream', [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
      });
    },
    drop() {
      for (const stream of [...streams]) {
        close(stream);
        stream.controller.error(new Error('restart'));
      }
    },
  };
}
