import type { ModelMessage, ModelRequest } from '../ModelProvider';
import type { LoadedAttachment } from './loadAttachments';

/** A part of a user message's content: text, or an image given as a (data) URL. */
type ChatContentPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly image_url: { readonly url: string } };

/** A message of OpenAI's chat completions API, as much of it as the host sends. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string | readonly ChatContentPart[] }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly ChatToolCall[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** A tool call inside an assistant message. */
interface ChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** What the user says to have a stopped reply resumed where it ended. */
const CONTINUE_PROMPT =
  'Continue your previous reply exactly where it stopped. Do not repeat anything you already wrote.';

/** Attachment contents by attachment id (see `loadAttachments`). */
export type LoadedAttachments = ReadonlyMap<string, LoadedAttachment>;

/**
 * Turns the host's history into chat completion messages. A tool call and its result are
 * paired by an id derived from the call's message id (the host keeps no provider ids), and a
 * call whose result is missing (stopped, cancelled) is sent as plain text, because the API
 * refuses an assistant `tool_calls` message that no `tool` message answers. A stopped reply
 * being continued goes last, followed by a request to continue it.
 *
 * Attachments whose content was loaded go with their message: text files inlined in the
 * text, images as `image_url` parts, a large tool result's full text instead of its preview.
 * The others are named, so the model can say what it cannot see rather than pretend.
 */
export function toChatMessages(request: ModelRequest, loaded: LoadedAttachments = new Map()): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (request.systemPrompt.trim() !== '') out.push({ role: 'system', content: request.systemPrompt });
  const { messages } = request;
  messages.forEach((message, index) => {
    const next = messages[index + 1];
    const mapped = toChatMessage(message, next, loaded);
    if (mapped) out.push(mapped);
  });
  if (request.partial !== '') {
    out.push({ role: 'assistant', content: request.partial });
    out.push({ role: 'user', content: CONTINUE_PROMPT });
  }
  return out;
}

/** The id a tool call of the message `messageId` is known by. */
function toolCallId(messageId: string): string {
  return `call_${messageId}`;
}

function toChatMessage(
  message: ModelMessage,
  next: ModelMessage | undefined,
  loaded: LoadedAttachments,
): ChatMessage | undefined {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.text };
    case 'user':
      return { role: 'user', content: userContent(message, loaded) };
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
    case 'tool': {
      const content = fullToolResult(message, loaded);
      if (message.parentId === null) return { role: 'user', content };
      return { role: 'tool', tool_call_id: toolCallId(message.parentId), content };
    }
    default: {
      const never: never = message.role;
      throw new Error(`Unknown role ${String(never)}`);
    }
  }
}

function userContent(message: ModelMessage, loaded: LoadedAttachments): string | ChatContentPart[] {
  if (message.attachments.length === 0) return message.text;
  const texts: string[] = message.text === '' ? [] : [message.text];
  const images: ChatContentPart[] = [];
  const unseen: string[] = [];
  for (const attachment of message.attachments) {
    const content = loaded.get(attachment.id);
    if (content?.kind === 'text') {
      texts.push(
        `<attached-file name=${JSON.stringify(attachment.name)} type=${JSON.stringify(attachment.type)}>\n${content.text}\n</attached-file>`,
      );
    } else if (content?.kind === 'image') {
      images.push({ type: 'image_url', image_url: { url: content.url } });
    } else {
      unseen.push(`${attachment.name} (${attachment.type}, ${attachment.size} bytes)`);
    }
  }
  if (unseen.length > 0) texts.push(`[Attached files not included: ${unseen.join(', ')}]`);
  const text = texts.join('\n\n');
  if (images.length === 0) return text;
  return text === '' ? images : [{ type: 'text', text }, ...images];
}

/** A tool result's text: the full output when it was stored as an attachment and could be read. */
function fullToolResult(message: ModelMessage, loaded: LoadedAttachments): string {
  for (const attachment of message.attachments) {
    const content = loaded.get(attachment.id);
    if (content?.kind === 'text') return content.text;
  }
  return message.text;
}
