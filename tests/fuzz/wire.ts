import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createParser } from 'eventsource-parser';

/** One request exactly as it goes on the wire. */
export interface WireRequest {
  readonly method: string;
  /** The request target, query included, as sent (not re-encoded). */
  readonly target: string;
  /** Sent in this order, duplicates kept; no Host is added when none is given. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: Buffer;
  /** An event stream: read its first events, then hang up. */
  readonly stream?: boolean;
}

/** One server-sent event as read off a stream. */
interface WireEvent {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
}

/** What came back. `status` 0: no HTTP answer at all (see `error`). */
export interface WireResponse {
  readonly status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly events: readonly WireEvent[];
  /** Why there is no answer (a reset, a timeout, a malformed response). */
  readonly error?: string;
  /** On a reused socket: the exchange before this one on it (to tell who left it broken). */
  readonly previous?: string;
  /** The request went out on a kept-alive socket an earlier response left open. */
  readonly reusedSocket?: boolean;
}

/** How long a request may take before it counts as unanswered. */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * An HTTP/1.1 client over real sockets with keep-alive (Node's own client, so framing bugs on
 * the server side show up as they would to a browser), plus raw byte writes for what no client
 * library will send.
 */
export class WireClient {
  private agent: Agent;
  /** The last exchange on each kept-alive socket. */
  private readonly history = new WeakMap<Socket, string>();
  /** The last bytes read on each socket, to show what a client could not parse. */
  private readonly tails = new WeakMap<Socket, string>();

  constructor(
    private readonly port: number,
    private readonly sockets = 8,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** Sends one request and reads its answer (the first events of a stream). */
  send(request: WireRequest, streamMs = 10): Promise<WireResponse> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (response: WireResponse) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(response);
      };
      const req = httpRequest({
        host: '127.0.0.1',
        port: this.port,
        method: request.method,
        path: request.target,
        headers: request.headers.flat(),
        setHost: false,
        agent: this.agent,
      });
      const timer = setTimeout(() => {
        req.destroy();
        finish(noAnswer('no answer in time', req.reusedSocket));
      }, ANSWER_TIMEOUT_MS);
      let socket: Socket | undefined;
      req.on('socket', (s: Socket) => {
        socket = s;
        if (!this.tails.has(s)) {
          this.tails.set(s, '');
          s.on('data', (chunk: Buffer) => {
            this.tails.set(s, ((this.tails.get(s) ?? '') + chunk.toString('latin1')).slice(-400));
          });
        }
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        const previous =
          socket && req.reusedSocket
            ? `${this.history.get(socket)}; last bytes read: ${JSON.stringify(this.tails.get(socket))}`
            : undefined;
        finish({
          ...noAnswer(error.code ?? error.message, req.reusedSocket),
          ...(previous ? { previous } : {}),
        });
      });
      req.on('response', (res) => {
        if (request.stream && res.statusCode === 200) {
          readEvents(res, streamMs).then((events) => {
            req.destroy();
            finish({ ...answered(res, Buffer.alloc(0), req.reusedSocket), events });
          });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (socket) {
            const sent = `${request.method} ${request.target.slice(0, 80)} [${request.headers.map(([n]) => n).join(',')}] ${request.body?.length ?? 0} bytes`;
            this.history.set(
              socket,
              `${sent} → ${res.statusCode} Connection: ${res.headers.connection ?? '(none)'}`,
            );
          }
          finish(answered(res, Buffer.concat(chunks), req.reusedSocket));
        });
        res.on('error', (error: NodeJS.ErrnoException) =>
          finish({
            ...answered(res, Buffer.concat(chunks), req.reusedSocket),
            error: error.code ?? error.message,
          }),
        );
      });
      req.end(request.body);
    });
  }

  /** Drops the kept-alive sockets (after a restart, they lead to a server that is gone). */
  closeIdle(): void {
    this.agent.destroy();
    this.agent = new Agent({ keepAlive: true, maxSockets: this.sockets });
  }

  /** Closes the kept-alive sockets. */
  close(): void {
    this.agent.destroy();
  }
}

function answered(res: IncomingMessage, body: Buffer, reusedSocket: boolean): WireResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headersDistinct)) headers[name] = (value ?? []).join(', ');
  return { status: res.statusCode ?? 0, headers, body, events: [], reusedSocket };
}

function noAnswer(error: string, reusedSocket: boolean): WireResponse {
  return { status: 0, headers: {}, body: Buffer.alloc(0), events: [], error, reusedSocket };
}

/** Reads events until the first `state` event and `settleMs` more, or 8 s (a loaded machine), whichever is first. */
function readEvents(res: IncomingMessage, settleMs: number): Promise<WireEvent[]> {
  return new Promise((resolve) => {
    const events: WireEvent[] = [];
    let timer = setTimeout(() => resolve(events), 8000);
    const parser = createParser({
      onEvent(message) {
        events.push({ event: message.event ?? 'message', id: message.id, data: message.data });
        if (message.event === 'state' && events.filter((e) => e.event === 'state').length === 1) {
          clearTimeout(timer);
          timer = setTimeout(() => resolve(events), settleMs);
        }
      },
    });
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => parser.feed(chunk));
    res.on('end', () => {
      clearTimeout(timer);
      resolve(events);
    });
  });
}

/** A raw answer: the bytes the server wrote before closing (or before `timeoutMs`). */
export interface RawAnswer {
  readonly bytes: Buffer;
  /** The server closed the socket (rather than the timeout ending the wait). */
  readonly closed: boolean;
}

/**
 * Writes `bytes` to a fresh socket, half-closes nothing, and collects what comes back until the
 * server closes or `timeoutMs` passes. For garbage no HTTP client would send.
 */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 1500): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks), closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A complete answer with a length ends the wait: a kept-alive socket would not close.
      const parsed = parseRaw(Buffer.concat(chunks));
      if (parsed?.complete) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(bytes);
  });
}

/** A response parsed off raw bytes. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The whole body announced by Content-Length has arrived. */
  readonly complete: boolean;
}

/** Parses the first response in `bytes`; undefined until its head is complete. */
export function parseRaw(bytes: Buffer): RawResponse | undefined {
  const split = bytes.indexOf('\r\n\r\n');
  if (split === -1) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const length = Number(headers['content-length'] ?? Number.NaN);
  const rest = bytes.subarray(split + 4);
  return {
    status: status ? Number(status[1]) : -1,
    headers,
    body: Number.isFinite(length) ? rest.subarray(0, length) : rest,
    complete: Number.isFinite(length) && rest.length >= length,
  };
}
