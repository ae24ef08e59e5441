import { setTimeout as sleep } from 'node:timers/promises';
import type { ModelEvent, ModelInfo, ModelProvider, ModelRequest } from './ModelProvider';

/** The offline model that is always present and the default. */
const ECHO_MODEL: ModelInfo = { id: 'echo', name: 'Echo (offline)', provider: 'echo' };

/** What a user message that asks the echo model for a tool call looks like. */
const TOOL_COMMAND = /^\/tool\s+(\S+)\s*([\s\S]*)$/;

/**
 * Splits text into words that keep their trailing whitespace; leading whitespace stays with
 * the first word, so joining the tokens gives the text back exactly.
 */
export function echoTokens(text: string): string[] {
  const tokens = text.match(/\S+\s*/g) ?? [];
  const leading = /^\s*/.exec(text)?.[0] ?? '';
  if (leading === '') return tokens;
  if (tokens.length === 0) return [leading];
  tokens[0] = leading + tokens[0];
  return tokens;
}

/** Options of {@link EchoModel}. */
export interface EchoModelOptions {
  /** Pause before each word, in milliseconds. @default 30 */
  readonly delayMs?: number;
}

/**
 * Streams the user's last message back word by word, without any network. A message
 * `/tool <name> <json-args>` makes it call that tool instead, so approvals can be tried
 * without a real model. Continuing a stopped reply streams what the reply still lacks.
 */
export class EchoModel implements ModelProvider {
  readonly id = 'echo';
  readonly models: readonly ModelInfo[] = [ECHO_MODEL];
  readonly followsToolResults = false;
  private readonly delayMs: number;

  constructor(options: EchoModelOptions = {}) {
    this.delayMs = options.delayMs ?? 30;
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelEvent> {
    const last = [...request.messages].reverse().find((message) => message.role === 'user');
    const text = last?.text ?? '';
    const command = TOOL_COMMAND.exec(text.trim());
    if (command && request.partial === '') {
      await sleep(this.delayMs, undefined, { signal });
      yield { type: 'tool_call', name: command[1]!, args: command[2]!.trim() || '{}' };
      return;
    }
    const target = echoTarget(text, last?.attachments.map((a) => a.name) ?? []);
    // A partial that is not a prefix of the target (edited elsewhere) has nothing left to echo.
    const rest = target.startsWith(request.partial) ? target.slice(request.partial.length) : '';
    for (const token of echoTokens(rest)) {
      await sleep(this.delayMs, undefined, { signal });
      if (signal.aborted) return;
      yield { type: 'text', text: token };
    }
  }
}

function echoTarget(text: string, attachmentNames: readonly string[]): string {
  if (text !== '' || attachmentNames.length === 0) return text;
  return `Received ${attachmentNames.join(', ')}`;
}
