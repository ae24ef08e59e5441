import { ndJsonStream, type Stream } from '@agentclientprotocol/sdk';

/** An agent process's stdio as web streams: what the host writes and what it reads. */
export interface AgentTransport {
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
}

/** Options of {@link guardedStream}. */
export interface GuardOptions {
  /** Most bytes of one line (message) read; a longer one ends the stream with `MessageTooLargeError`. */
  readonly maxMessageBytes: number;
  /** The agent broke JSON-RPC (a line that is not JSON, not an object, or not a message). */
  readonly onMalformed: (what: string) => void;
}

/**
 * The SDK's newline-delimited JSON stream over an agent's stdio, size-bounded, that also
 * tells when the agent sent something that is not JSON-RPC.
 *
 * The SDK answers such a line with an error response of `id: null` and carries on; a peer
 * that writes garbage on its protocol channel cannot be trusted with the next message either,
 * so the host ends the connection instead. Those `id: null` errors are the only messages the
 * client side ever sends without an id, which is how they are recognised here (the first
 * bytes of each outgoing line, no second parse).
 */
export function guardedStream(transport: AgentTransport, options: GuardOptions): Stream {
  const decoder = new TextDecoder();
  const writer = transport.stdin;
  const watched = new WritableStream<Uint8Array>({
    async write(chunk) {
      const head = decoder.decode(chunk.subarray(0, 64));
      if (head.startsWith(PROTOCOL_ERROR)) options.onMalformed(malformedWhat(head));
      const w = writer.getWriter();
      try {
        await w.write(chunk);
      } finally {
        w.releaseLock();
      }
    },
    async close() {
      await writer.close().catch(() => {});
    },
    async abort(reason) {
      await writer.abort(reason).catch(() => {});
    },
  });
  return ndJsonStream(watched, transport.stdout, { maxMessageBytes: options.maxMessageBytes });
}

/** How the SDK's `protocolErrorResponse` serialises (`jsonrpc`, `id`, `error`, in that order). */
const PROTOCOL_ERROR = '{"jsonrpc":"2.0","id":null,"error":';

function malformedWhat(head: string): string {
  if (head.includes('"code":-32700')) return 'sent a line that is not JSON';
  return 'sent a message that is not JSON-RPC';
}
