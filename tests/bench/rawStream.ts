import { connect, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { StreamEvent } from '@webbridge/contract';

const SHARED_READ_BUFFER = Buffer.allocUnsafe(64 * 1024);
const FRAME_END = Buffer.from('\n\n');
const NEWLINE = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;

/** One server-sent event as read off the wire. */
export interface RawFrame {
  readonly event: string | undefined;
  readonly id: string | undefined;
  readonly data: string;
  /** UTF-8 bytes of the SSE frame (its lines and the blank line), without HTTP chunk framing. */
  readonly sseBytes: number;
}

/** An open GET /api/events read from a bare socket. */
export interface RawStream {
  /** Every byte read off the socket so far (HTTP head, chunk framing and SSE frames). */
  readonly socketBytes: number;
  /** Whether the body came with chunk framing (known once the head has arrived). */
  readonly chunked: boolean;
  /** The HTTP status, once the head has arrived. */
  readonly status: Promise<number>;
  /** Settles when the socket has closed. */
  readonly closed: Promise<void>;
  close(): void;
}

/** Options of {@link openRawStream}. */
export interface RawStreamOptions {
  readonly port: number;
  readonly accessCode: string;
  /** Query of the request, e.g. `?frames=compact` (what the SDK asks for). @default '' */
  readonly query?: string;
  readonly onFrame: (frame: RawFrame) => void;
  /** Speak TLS, trusting only this authority (PEM). @default plain TCP */
  readonly ca?: string | undefined;
}

/**
 * Opens the event stream on a bare TCP socket and splits it into SSE frames with a minimal
 * parser (HTTP/1.1 chunked decoding, `\n\n` split, `event:`/`id:`/`data:` lines). Benchmarks
 * use it instead of fetch so that thousands of streams cost the client little and every byte
 * on the socket is counted.
 */
export function openRawStream(options: RawStreamOptions): RawStream {
  // Reads land in one buffer shared by every stream (`onread`): the callback consumes each
  // read before the next one, so thousands of streams cost no allocation and no readable-stream
  // bookkeeping per read. What a real browser spends on its own stream is not this process's.
  const socket: Socket =
    options.ca === undefined
      ? connect({
          port: options.port,
          host: '127.0.0.1',
          noDelay: true,
          onread: {
            buffer: SHARED_READ_BUFFER,
            callback(bytes) {
              onChunk(SHARED_READ_BUFFER.subarray(0, bytes));
              return true;
            },
          },
        })
      : // TLS decrypts into buffers of its own; the client's share of the cost is measured too.
        connectTls({ port: options.port, host: '127.0.0.1', ca: options.ca })
          .setNoDelay(true)
          .on('data', (chunk: Buffer) => onChunk(chunk));
  let pending: Buffer | undefined;
  let socketBytes = 0;
  let head: Buffer | undefined = Buffer.alloc(0);
  let chunked = false;
  let need = 0;
  let skip = 0;
  let sizeLine = '';
  let setStatus: (status: number) => void = () => undefined;
  const status = new Promise<number>((resolve) => {
    setStatus = resolve;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

  /** Splits SSE frames off the bytes, keeping an incomplete tail for the next read. */
  const onText = (piece: Buffer) => {
    // `piece` may sit in the shared read buffer: whatever is kept must be copied.
    const bytes = pending === undefined ? piece : Buffer.concat([pending, piece]);
    let from = 0;
    for (let end = bytes.indexOf(FRAME_END, from); end !== -1; end = bytes.indexOf(FRAME_END, from)) {
      let event: string | undefined;
      let id: string | undefined;
      let data: string | undefined;
      for (let line = from; line < end; ) {
        let lineEnd = bytes.indexOf(NEWLINE, line);
        if (lineEnd === -1 || lineEnd > end) lineEnd = end;
        const colon = bytes.indexOf(COLON, line);
        if (colon !== -1 && colon < lineEnd) {
          const valueStart = bytes[colon + 1] === SPACE ? colon + 2 : colon + 1;
          const value = bytes.toString('utf8', valueStart, lineEnd);
          const field = bytes.toString('latin1', line, colon);
          if (field === 'event') event = value;
          else if (field === 'id') id = value;
          else if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
        }
        line = lineEnd + 1;
      }
      options.onFrame({ event, id, data: data ?? '', sseBytes: end - from + 2 });
      from = end + 2;
    }
    pending = from === bytes.length ? undefined : Buffer.from(bytes.subarray(from));
  };

  const onBody = (buf: Buffer) => {
    if (!chunked) return onText(buf);
    let i = 0;
    while (i < buf.length) {
      if (need > 0) {
        const n = Math.min(need, buf.length - i);
        onText(buf.subarray(i, i + n));
        need -= n;
        i += n;
        if (need === 0) skip = 2;
      } else if (skip > 0) {
        const n = Math.min(skip, buf.length - i);
        skip -= n;
        i += n;
      } else {
        const newline = buf.indexOf(10, i);
        if (newline === -1) {
          sizeLine += buf.toString('latin1', i);
          return;
        }
        sizeLine += buf.toString('latin1', i, newline);
        i = newline + 1;
        need = Number.parseInt(sizeLine.trim(), 16);
        sizeLine = '';
        if (need === 0) {
          socket.end();
          return;
        }
      }
    }
  };

  const onChunk = (chunk: Buffer) => {
    socketBytes += chunk.length;
    if (head === undefined) return onBody(chunk);
    head = Buffer.concat([head, chunk]);
    const split = head.indexOf('\r\n\r\n');
    if (split === -1) return;
    const lines = head.toString('latin1', 0, split).split('\r\n');
    chunked = lines.some((line) => /^transfer-encoding:\s*chunked/i.test(line));
    setStatus(Number(lines[0]?.split(' ')[1]));
    const rest = head.subarray(split + 4);
    head = undefined;
    if (rest.length > 0) onBody(rest);
  };
  socket.on('error', () => undefined);
  socket.write(
    `GET /api/events${options.query ?? ''} HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\n` +
      `Authorization: Bearer ${options.accessCode}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  return {
    get socketBytes() {
      return socketBytes;
    },
    get chunked() {
      return chunked;
    },
    status,
    closed,
    close: () => socket.destroy(),
  };
}

/** The stream event a frame carries (the SDK validates; the benchmark trusts its own host). */
export function eventOf(frame: RawFrame): StreamEvent | undefined {
  if (frame.event === 'heartbeat') return undefined;
  const data = JSON.parse(frame.data) as StreamEvent | [number, string];
  // An append is `[base, text]`, named (`event: state`) or compact (no event line).
  if (!Array.isArray(data)) return data;
  const [base, text] = data;
  return { kind: 'append', seq: Number(frame.id), base, text };
}
