import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers one POST /chat/completions with. */
export type FakeReply =
  /** Content deltas, one chunk each, then `finish_reason: "stop"` and `data: [DONE]`. */
  | {
      readonly kind: 'text';
      readonly chunks: readonly string[];
      readonly delayMs?: number;
      /** After this many chunks, send nothing more (a model "thinking") until the client leaves. */
      readonly stallAfter?: number;
    }
  /** Optional content, then one tool call whose arguments arrive in the given pieces. */
  | {
      readonly kind: 'tool';
      readonly name: string;
      readonly argPieces: readonly string[];
      readonly text?: readonly string[];
    }
  /** An HTTP error with OpenAI's error body. */
  | { readonly kind: 'status'; readonly status: number; readonly message: string; readonly code?: string }
  /** A 200 event stream that sends these raw bytes and ends (malformed streams). */
  | { readonly kind: 'raw'; readonly body: string }
  /** Headers of a 200 event stream, then silence until the client gives up. */
  | { readonly kind: 'silent' };

/** One request the fake received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  /** The parsed JSON body (POST), or undefined. */
  readonly body: Record<string, unknown> | undefined;
  /** Set once the response ended or the client went away; `true` when the client left first. */
  clientAborted?: boolean;
}

/** A running fake endpoint. */
export interface FakeOpenAi {
  /** The API root to give the host, `http://127.0.0.1:<port>/v1`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Queues answers for the next chat completion requests, in order. */
  reply(...replies: FakeReply[]): void;
  /** Resolves once a recorded request has ended (finished or aborted by the client). */
  ended(request: RecordedRequest, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startFakeOpenAi}. */
export interface FakeOpenAiOptions {
  /** Answer 401 (OpenAI's invalid_api_key body) unless this Bearer key is sent. */
  readonly apiKey?: string;
  /** The ids GET /v1/models lists. @default ['gpt-fake-mini', 'gpt-fake-large'] */
  readonly models?: readonly string[];
  /**
   * Answers a chat completion request before the queue is asked (e.g. an agent's side requests
   * such as title generation, which arrive at any point); `undefined` leaves it to the queue.
   */
  readonly intercept?: (body: Record<string, unknown> | undefined) => FakeReply | undefined;
  /** Told of every request as it arrives (after it is recorded). */
  readonly onRequest?: (request: RecordedRequest) => void;
}

/**
 * A local stand-in for OpenAI's API, faithful to its wire format: `GET /v1/models` and
 * `POST /v1/chat/completions` with `stream: true`, answered as `text/event-stream` with
 * `data: {chat.completion.chunk}` frames (first a role delta, then content or `tool_calls`
 * deltas, a final `finish_reason`, then `data: [DONE]`), and errors as `{ error: { message,
 * type, param, code } }`. It records every request so tests assert what the host sent.
 */
export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const queue: FakeReply[] = [];
  const requests: RecordedRequest[] = [];
  const endings = new Map<RecordedRequest, Promise<void>>();
  const models = options.models ?? ['gpt-fake-mini', 'gpt-fake-large'];
  let sequence = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
    };
    requests.push(record);
    endings.set(
      record,
      new Promise<void>((resolve) => {
        res.on('close', () => {
          record.clientAborted = !res.writableFinished;
          resolve();
        });
      }),
    );
    options.onRequest?.(record);
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      const shown = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      // OpenAI echoes a masked key; this fake echoes it whole, the worst case for leaks.
      sendError(res, 401, `Incorrect API key provided: ${shown}.`, 'invalid_api_key');
      return;
    }
    if (req.method === 'GET' && req.url === '/v1/models') {
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 1_715_367_049, owned_by: 'system' })),
      });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      sendError(res, 404, `Invalid URL (${req.method} ${req.url})`, null);
      return;
    }
    const next = options.intercept?.(record.body) ?? queue.shift();
    if (!next) {
      sendError(res, 500, 'The fake has no reply queued.', null);
      return;
    }
    await answer(res, next, String(record.body?.model ?? ''), `chatcmpl-fake${++sequence}`);
  }

  async function answer(res: ServerResponse, reply: FakeReply, model: string, id: string): Promise<void> {
    if (reply.kind === 'status') {
      sendError(res, reply.status, reply.message, reply.code ?? null);
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    });
    res.flushHeaders();
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: Math.floor(Date.now() / 1000),
        model,
        system_fingerprint: 'fp_fake',
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })}\n\n`;
    const write = async (frame: string, delayMs = 0) => {
      if (res.destroyed) return false;
      res.write(frame);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      return !res.destroyed;
    };
    switch (reply.kind) {
      case 'raw':
        res.end(reply.body);
        return;
      case 'silent':
        return;
      case 'text': {
        await write(chunk({ role: 'assistant', content: '', refusal: null }));
        for (const [index, piece] of reply.chunks.entries()) {
          if (index === reply.stallAfter) return;
          if (!(await write(chunk({ content: piece }), reply.delayMs ?? 0))) return;
        }
        await write(chunk({}, 'stop'));
        res.end('data: [DONE]\n\n');
        return;
      }
      case 'tool': {
        const callId = `call_fake${sequence}`;
        await write(chunk({ role: 'assistant', content: reply.text ? '' : null, refusal: null }));
        for (const piece of reply.text ?? []) await write(chunk({ content: piece }));
        await write(
          chunk({
            tool_calls: [
              { index: 0, id: callId, type: 'function', function: { name: reply.name, arguments: '' } },
            ],
          }),
        );
        for (const piece of reply.argPieces) {
          await write(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
        }
        await write(chunk({}, 'tool_calls'));
        res.end('data: [DONE]\n\n');
        return;
      }
      default: {
        const never: never = reply;
        throw new Error(`unknown reply ${JSON.stringify(never)}`);
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => {
      queue.push(...replies);
    },
    async ended(request, timeoutMs = 5_000) {
      const ending = endings.get(request);
      if (!ending) throw new Error('not a request of this fake');
      await Promise.race([
        ending,
        new Promise((_, reject) => setTimeout(() => reject(new Error('request did not end')), timeoutMs)),
      ]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, code: string | null): void {
  const type =
    status === 401 ? 'invalid_request_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, { error: { message, type, param: null, code } });
}
