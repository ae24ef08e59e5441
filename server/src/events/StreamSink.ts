import type { ServerResponse } from 'node:http';

/**
 * Where one subscriber's frames go. `write` answers whether the transport wants more now;
 * after `false` the producer builds nothing until `onDrain` fires (the rendezvous).
 */
export interface StreamSink {
  write(frame: Uint8Array): boolean;
  onDrain(callback: () => void): void;
  /** The client went away (or the stream was cancelled). */
  onClose(callback: () => void): void;
  end(): void;
}

/**
 * A sink over Node's response: frames go straight to the socket, and `drain` is the socket
 * having taken them. Cheaper than a web stream per subscriber, which matters at thousands of
 * streams.
 */
export function nodeResponseSink(outgoing: ServerResponse, headers: Record<string, string>): StreamSink {
  // The body ends when the connection does (RFC 9112 §6.3): no chunk framing around every
  // frame, which saves bytes on each streamed word and work on each write. An event stream
  // never shares its connection anyway.
  outgoing.useChunkedEncodingByDefault = false;
  outgoing.writeHead(200, { ...headers, Connection: 'close' });
  outgoing.flushHeaders();
  // With the headers out and no framing left to add, frames can go to the socket itself,
  // skipping the response's per-write bookkeeping (measurable at thousands of streams).
  const socket = outgoing.socket;
  if (!socket) {
    // The connection is still finishing the response before this one (a keep-alive client
    // that asked again at once): Node gives this response the socket afterwards and keeps
    // what is written until then. Through the response, nothing is lost meanwhile.
    return {
      write: (frame) => outgoing.write(frame),
      onDrain: (callback) => outgoing.on('drain', callback),
      onClose: (callback) => outgoing.once('close', callback),
      end: () => outgoing.end(),
    };
  }
  return {
    write: (frame) => socket.write(frame),
    onDrain: (callback) => socket.on('drain', callback),
    onClose: (callback) => outgoing.once('close', callback),
    end: () => outgoing.end(),
  };
}

/**
 * A sink over a web `ReadableStream`, for runtimes without Node's response (e.g. `app.request`
 * in tests). With a high-water mark of one frame, `pull` is the consumer asking for more.
 */
export function webStreamSink(): { sink: StreamSink; stream: ReadableStream<Uint8Array> } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let drain: (() => void) | undefined;
  let close: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      // A stream with a reader already waiting asks for more inside `enqueue`, that is inside
      // the subscriber's write: draining there would make it flush again before it has noted
      // what it just wrote (and send that frame twice). Drain once the write has returned.
      pull: () => {
        if (drain) queueMicrotask(drain);
      },
      cancel: () => close?.(),
    },
    { highWaterMark: 1 },
  );
  return {
    stream,
    sink: {
      write(frame) {
        controller?.enqueue(frame);
        return (controller?.desiredSize ?? 0) > 0;
      },
      onDrain: (callback) => {
        drain = callback;
      },
      onClose: (callback) => {
        close = callback;
      },
      end() {
        try {
          controller?.close();
        } catch {
          // Already closed or cancelled by the consumer.
        }
      },
    },
  };
}
