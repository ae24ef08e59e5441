import { type FakeReply, type RecordedRequest, startFakeOpenAi } from '../../host/fakeOpenAi';

/** The title the model gives every title request. */
export const SCRIPTED_TITLE = 'Scripted session';

/** One scripted answer of the model. */
export type ScriptedAnswer = FakeReply;

/** Builders of answers. */
export const answer = {
  /** Text streamed one word per chunk (each word keeps its leading space). */
  words: (text: string, delayMs?: number): ScriptedAnswer => ({
    kind: 'text',
    chunks: text.match(/\s*\S+/g) ?? [text],
    ...(delayMs === undefined ? {} : { delayMs }),
  }),
  /** Some words, then nothing more until the client goes away (a reply to stop mid-way). */
  stallAfter: (text: string): ScriptedAnswer => {
    const chunks = text.match(/\s*\S+/g) ?? [text];
    return { kind: 'text', chunks: [...chunks, ' never'], stallAfter: chunks.length };
  },
  /** One tool call with these JSON arguments (sent in two pieces, as models do). */
  toolCall: (name: string, args: Record<string, unknown>, text?: string): ScriptedAnswer => {
    const json = JSON.stringify(args);
    const half = Math.floor(json.length / 2);
    return {
      kind: 'tool',
      name,
      argPieces: [json.slice(0, half), json.slice(half)],
      ...(text === undefined ? {} : { text: [text] }),
    };
  },
};

/** A running scripted model. */
export interface ScriptedChatModel {
  /** `http://127.0.0.1:<port>/v1`, for a provider's baseURL. */
  readonly baseUrl: string;
  /** Chat requests other than title requests, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** How many title requests it answered. */
  readonly titleRequests: number;
  /** Queues answers for the next (non-title) chat requests, in order. */
  reply(...answers: ScriptedAnswer[]): void;
  /** Resolves with the `index`-th non-title chat request (0-based) once it has arrived. */
  request(index: number, timeoutMs?: number): Promise<RecordedRequest>;
  /** Resolves once that request has ended (finished, or aborted by the client). */
  ended(request: RecordedRequest, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Whether a chat request is an agent's title request (opencode's system prompt names it). */
export function isTitleRequest(body: Record<string, unknown> | undefined): boolean {
  const messages = Array.isArray(body?.messages)
    ? (body.messages as Array<{ role?: unknown; content?: unknown }>)
    : [];
  return messages.some(
    (message) =>
      message.role === 'system' && JSON.stringify(message.content ?? '').includes('title generator'),
  );
}

/**
 * A local OpenAI-compatible chat-completions server for agents under test (opencode, codex),
 * built on tests/host/fakeOpenAi.ts: streaming `chat.completion.chunk` frames, scripted per
 * test (words, or a tool call), title requests answered with {@link SCRIPTED_TITLE} whenever
 * they come, every request recorded.
 *
 * @example
 * const model = await startScriptedChatModel();
 * model.reply(answer.toolCall('write', { filePath, content: 'hi\n' }), answer.words('Written.'));
 */
export async function startScriptedChatModel(): Promise<ScriptedChatModel> {
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  let titleRequests = 0;
  const fake = await startFakeOpenAi({
    models: ['fake-model'],
    intercept(body) {
      if (!isTitleRequest(body)) return undefined;
      titleRequests += 1;
      return { kind: 'text', chunks: [SCRIPTED_TITLE] };
    },
    onRequest(record) {
      if (record.path !== '/v1/chat/completions' || isTitleRequest(record.body)) return;
      requests.push(record);
      for (const waiter of [...waiters]) waiter();
    },
  });
  return {
    baseUrl: fake.baseUrl,
    requests,
    get titleRequests() {
      return titleRequests;
    },
    reply: (...answers) => fake.reply(...answers),
    request: (index, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = requests[index];
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no chat request #${index} within ${timeoutMs} ms (got ${requests.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    ended: (request, timeoutMs = 60_000) => fake.ended(request, timeoutMs),
    close: () => fake.close(),
  };
}
