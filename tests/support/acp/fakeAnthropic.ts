import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake Messages API. */
export type AnthropicAnswer =
  /** Text streamed one word per `text_delta`, then stop reason end_turn. */
  | { readonly kind: 'text'; readonly text: string }
  /** One `tool_use` block whose JSON input streams as `input_json_delta`, then stop reason tool_use. */
  | { readonly kind: 'tool'; readonly name: string; readonly input: Record<string, unknown> };

/** One request the fake received. */
export interface AnthropicRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, unknown> | undefined;
}

/** A running fake of Anthropic's Messages API. */
export interface FakeAnthropic {
  /** For ANTHROPIC_BASE_URL: `http://127.0.0.1:<port>` (no /v1). */
  readonly baseUrl: string;
  readonly requests: readonly AnthropicRequest[];
  /** Queues answers for the next streamed `POST /v1/messages`, in order. */
  reply(...answers: AnthropicAnswer[]): void;
  close(): Promise<void>;
}

/** The text every request gets once the queue is empty (and every non-streamed request). */
export const FAKE_ANTHROPIC_FALLBACK = 'Nothing more was scripted.';

/**
 * A local stand-in for Anthropic's Messages API, faithful to its streaming wire format
 * (`event: message_start`, `content_block_start`, `content_block_delta` with `text_delta` or
 * `input_json_delta`, `content_block_stop`, `message_delta` with the stop reason and usage,
 * `message_stop`), `count_tokens`, and errors as `{ type: 'error', error: { type, message } }`.
 * Enough for Claude Code (through @zed-industries/claude-agent-acp) pointed at it with
 * ANTHROPIC_BASE_URL.
 */
export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const queue: AnthropicAnswer[] = [];
  const requests: AnthropicRequest[] = [];
  let sequence = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0] ?? '';
    const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
    requests.push({ method: req.method ?? '', path, body });
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      sendJson(res, 200, { input_tokens: 12 });
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/messages') {
      sendJson(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `No ${req.method} ${path}` },
      });
      return;
    }
    const id = `msg_fake${++sequence}`;
    const model = String(body?.model ?? 'claude-fake');
    const usage = {
      input_tokens: 10,
      output_tokens: 5,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    if (body?.stream !== true) {
      sendJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: FAKE_ANTHROPIC_FALLBACK }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      });
      return;
    }
    const next = queue.shift() ?? { kind: 'text', text: FAKE_ANTHROPIC_FALLBACK };
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const event = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    });
    switch (next.kind) {
      case 'text':
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        for (const word of next.text.match(/\s*\S+/g) ?? [next.text]) {
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: word } });
        }
        break;
      case 'tool': {
        const json = JSON.stringify(next.input);
        const half = Math.floor(json.length / 2);
        event('content_block_start', {
          index: 0,
          content_block: { type: 'tool_use', id: `toolu_fake${sequence}`, name: next.name, input: {} },
        });
        for (const piece of [json.slice(0, half), json.slice(half)]) {
          event('content_block_delta', {
            index: 0,
            delta: { type: 'input_json_delta', partial_json: piece },
          });
        }
        break;
      }
      default: {
        const never: never = next;
        throw new Error(`unknown answer ${JSON.stringify(never)}`);
      }
    }
    event('content_block_stop', { index: 0 });
    event('message_delta', {
      delta: { stop_reason: next.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    });
    event('message_stop', {});
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    reply: (...answers) => void queue.push(...answers),
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
