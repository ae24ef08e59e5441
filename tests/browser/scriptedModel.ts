import type { ModelEvent, ModelProvider, ModelRequest, RunningHost } from '@webbridge/host';
import { startTestHost, type TestHost } from '../support/testHost';

/** Answers at once, the whole reply in one piece: seeds a long conversation in seconds. */
export const INSTANT_MODEL = 'scripted-instant';
/** Streams the same replies word by word, `wordDelayMs` apart: a reply to watch grow. */
export const PACED_MODEL = 'scripted-paced';

/**
 * The reply to {@link LONG_REPLY_PROMPT}: long markdown (paragraphs, a list, a code block, a
 * heading), to watch a reply stream across blocks of every kind.
 */
export const STREAMED_REPLY = [
  'Here is the plan, step by step, with the reasons for each choice written out so you can check them against what you see on your own screen before anything changes.',
  '',
  '1. Read the **snapshot** once, when the page opens.',
  '2. Apply each delta in order, appending the text of the reply as it grows.',
  '3. Ask for a fresh snapshot when a delta does not fit.',
  '',
  '```ts',
  'for await (const event of stream) {',
  '  const result = applyEvent(state, event);',
  "  if (result.kind === 'resync') state = await fetchState();",
  '  else state = result.state;',
  '}',
  '```',
  '',
  '## What you should see',
  '',
  'The reply grows word by word at the bottom of the page, and nothing above it moves: the list stays where it is, the code block keeps its place, and the composer does not jump while the buttons change from Send to Stop and back again.',
].join('\n');

/** A short question whose scripted answer is {@link STREAMED_REPLY}. */
export const LONG_REPLY_PROMPT = 'Explain the plan step by step';

const REPLIES: readonly string[] = [
  'Sure. The short answer is yes, and the longer one follows below if you want it.',
  'Here is how it works: the host keeps the **state**, and the browser only sends `actions` and reads the stream of changes. Nothing is stored twice, so nothing can drift apart.',
  [
    'Three things to check first:',
    '',
    '- the access code is the current one',
    '- the phone and the computer are on the same network',
    '- the port is not blocked by a firewall',
    '',
    'If all three hold, reload the page.',
  ].join('\n'),
  [
    'A minimal example:',
    '',
    '```ts',
    'const client = createBridgeClient({ baseUrl: location.origin, accessCode: code });',
    'client.connect();',
    'client.store.subscribe(({ snapshot }) => render(snapshot));',
    '```',
    '',
    'The store calls you back on every change, so the view is never out of date.',
  ].join('\n'),
  [
    '## Why a delta and not a snapshot',
    '',
    'A snapshot of a long conversation is hundreds of kilobytes; a streamed word is a few bytes. Sending only what changed keeps every update cheap, however long the history is.',
    '',
    'When the client is not where a delta expects it to be, it asks for a fresh snapshot instead of guessing. That one rule is what keeps both sides equal.',
    '',
    '1. read the snapshot',
    '2. apply each delta in order',
    '3. resynchronise when a base does not match',
  ].join('\n'),
];

const QUESTIONS: readonly string[] = [
  'Can I read the conversation from my laptop?',
  'How does the browser stay in sync with the phone without a second database?',
  'It does not connect. What should I check?',
  'Show me the smallest client that renders the state, please. A code sample is enough.',
  'Why are changes sent as deltas?',
  'ok',
];

/** The reply the scripted models give to a user message (chosen from its text, so stable). */
function scriptedReply(text: string): string {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) >>> 0;
  return REPLIES[hash % REPLIES.length] ?? '';
}

/** The `i`-th user message of a seeded conversation: a few kinds of question, numbered. */
function scriptedQuestion(i: number): string {
  return `${QUESTIONS[i % QUESTIONS.length]} (${i + 1})`;
}

/**
 * A model provider for tests and benchmarks: canned markdown replies (paragraphs, lists, code),
 * either at once or word by word. {@link LONG_REPLY_PROMPT} is answered with
 * {@link STREAMED_REPLY}; a user message starting with `>` is echoed back (without the `>`),
 * so a test can choose the exact reply.
 */
export function scriptedModels(wordDelayMs = 15): ModelProvider {
  return {
    id: 'scripted',
    followsToolResults: false,
    models: [
      { id: INSTANT_MODEL, name: 'Scripted (instant)', provider: 'scripted' },
      { id: PACED_MODEL, name: 'Scripted (paced)', provider: 'scripted' },
    ],
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
      const last = [...request.messages].reverse().find((m) => m.role === 'user')?.text ?? '';
      const full = last.startsWith('>')
        ? last.slice(1).trim()
        : last === LONG_REPLY_PROMPT
          ? STREAMED_REPLY
          : scriptedReply(last);
      const rest = full.startsWith(request.partial) ? full.slice(request.partial.length) : '';
      if (request.model === INSTANT_MODEL) {
        yield { type: 'text', text: rest };
        return;
      }
      for (const token of rest.match(/\s*\S+/g) ?? []) {
        await new Promise((resolve) => setTimeout(resolve, wordDelayMs));
        if (signal.aborted) return;
        yield { type: 'text', text: token };
      }
    },
  };
}

/** Resolves when the host's current conversation has no reply running. */
function whenIdle(controller: RunningHost['controller']): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (controller.readState().conversations.run.state !== 'idle') return false;
      unsubscribe();
      resolve();
      return true;
    };
    const unsubscribe = controller.subscribe(() => void check());
    check();
  });
}

/**
 * Adds `exchanges` question/answer pairs to the host's current conversation with the instant
 * scripted model (the host must have been started with {@link scriptedModels}), then selects
 * `thenModel` for what comes next.
 */
export async function seedConversation(
  host: RunningHost,
  exchanges: number,
  thenModel: string = PACED_MODEL,
): Promise<void> {
  const { controller } = host;
  await controller.executor.run(() => controller.conversations.setModel(INSTANT_MODEL));
  for (let i = 0; i < exchanges; i++) {
    await controller.executor.run(() => controller.messages.send(scriptedQuestion(i)));
    await whenIdle(controller);
  }
  await controller.executor.run(() => controller.conversations.setModel(thenModel));
}

/**
 * A reference host on a free loopback port with the {@link scriptedModels} beside the echo
 * model.
 */
export function startScriptedHost(wordDelayMs = 15): Promise<TestHost> {
  return startTestHost({ providers: [scriptedModels(wordDelayMs)] });
}
