import type { SyncState } from '@webbridge/client-sdk';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, STATE_EVENT } from '@webbridge/contract';

/** One SSE frame of the state stream, its `id:` the seq so a client can resume. */
export function mockStateFrame(seq: number, data: unknown): string {
  return `event:${STATE_EVENT}\nid:${seq}\ndata:${JSON.stringify(data)}\n\n`;
}

/** The snapshot frame of a state, as a new connection (or a reconfiguration) receives it. */
export function mockSnapshotFrame(sync: SyncState): string {
  return mockStateFrame(sync.seq, {
    kind: 'snapshot',
    seq: sync.seq,
    signature: sync.signature,
    snapshot: sync.snapshot,
  });
}

/** The open event streams of the mock backend. */
export interface MockEventStream {
  /** Sends a frame to every open stream, forgetting those that have closed. */
  write(frame: string): void;
  /** Opens a stream for `request` that starts with `first`. */
  open(request: Request, first: string): Response;
  /** Ends every stream with an error (a service restart, as the page sees it). */
  drop(): void;
}

/** Creates the mock backend's set of SSE streams. */
export function createMockEventStream(): MockEventStream {
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const encoder = new TextEncoder();
  return {
    write(frame) {
      for (const stream of streams) {
        try {
          stream.enqueue(encoder.encode(frame));
        } catch {
          streams.delete(stream);
        }
      }
    },
    open(request, first) {
      let own: ReadableStreamDefaultController<Uint8Array> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          own = controller;
          streams.add(controller);
          controller.enqueue(encoder.encode(first));
        },
        cancel() {
          if (own) streams.delete(own);
        },
      });
      request.signal.addEventListener('abort', () => {
        if (own) streams.delete(own);
      });
      return new Response(body, {
        headers: { 'Content-Type': 'text/event-stream', [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) },
      });
    },
    drop() {
      for (const s of streams) s.error(new Error('restart'));
      streams.clear();
    },
  };
}
