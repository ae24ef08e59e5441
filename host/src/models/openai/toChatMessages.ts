import type { ModelMessage, ModelRequest } from '../ModelProvider';

/** A message of OpenAI's chat completions API, as much of it as the host sends. */
export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly ChatToolCall[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** A tool call inside an assistant message. */
export interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** What the user says to have a stopped reply resumed where it ended. */
export const CONTINUE_PROMPT =
  'Continue your previous reply exactly where it stopped. Do not repeat anything you already wrote.';

/**
 * Turns the host's history into chat completion messages. A tool call and its result are
 * paired by an id derived from the call's message id (the host keeps no provider ids), and a
 * call whose result is missing (stopped, cancelled) is sent as plain text, because the API
 * refuses an assistant `tool_calls` message that no `tool` message answers. A stopped reply
 * being continued goes last, followed by a request to continue it.
 */
export function toChatMessages(request: ModelRequest): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (request.systemPrompt.trim() !== '') out.push({ role: 'system', content: request.systemPrompt });
  const { messages } = request;
  messages.forEach((message, index) => {
    const next = messages[index + 1];
    const mapped = toChatMessage(message, next);
    if (mapped) out.push(mapped);
  });
  if (request.partial !== '') {
    out.push({ role: 'assistant', content: request.partial });
    out.push({ role: 'user', content: CONTINUE_PROMPT });
  }
  return out;
}

/** The id a tool call of the message `messageId` is known by. */
export function toolCallId(messageId: string): string {
  return `call_${messageId}`;
}

function toChatMessage(message: ModelMessage, next: ModelMessage | undefined): ChatMessage | undefined {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.text };
    case 'user':
      return { role: 'user', content: withAttachments(message) };
    case 'assistant': {
      const answered = next?.role === 'tool' && next.parentId === message.id;
      if (message.tool && answered) {
        return {
          role: 'assistant',
          content: message.text === '' ? null : message.text,
          tool_calls: [
            {
              id: toolCallId(message.id),
              type: 'function',
              function: { name: message.tool.name, arguments: message.tool.args },
            },
          ],
        };
      }
      const text = message.tool
        ? `${message.text}${message.text === '' ? '' : '\n'}(called ${message.tool.name} ${message.tool.args}; it did not run)`
        : message.text;
      return text === '' ? undefined : { role: 'assistant', content: text };
    }
    case 'tool':
      if (message.parentId === null) return { role: 'user', content: message.text };
      return { role: 'tool', tool_call_id: toolCallId(message.parentId), content: message.text };
    default: {
      const never: never = message.role;
      throw new Error(`Unknown role ${String(never)}`);
    }
  }
}

function withAttachments(message: ModelMessage): string {
  if (message.attachments.length === 0) return message.text;
  // The files themselves are not sent (most endpoints take text only); naming them lets the
  // model say what it cannot see rather than pretend.
  const names = message.attachments.map((a) => `${a.name} (${a.type}, ${a.size} bytes)`).join(', ');
  return `${message.text}${message.text === '' ? '' : '\n\n'}[Attached files: ${names}]`;
}
