import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolFile, ToolResult } from '../controller/tools/Tool';
import { ToolError } from '../controller/tools/ToolError';

/** Most text of one result kept (as `read_file` keeps); past it the text is cut with a note. */
export const MAX_RESULT_TEXT_BYTES = 256 * 1024;
/** Largest file (image, audio, binary resource) of a result kept; the size a model is sent. */
export const MAX_RESULT_FILE_BYTES = 5 * 1024 * 1024;
/** Most files one result attaches. */
export const MAX_RESULT_FILES = 8;
/** Longest error text of a failed call shown. */
const MAX_ERROR_CHARS = 2_000;

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'application/pdf': 'pdf',
};

/**
 * Turns an MCP tool result into what the host records: text parts and text resources become
 * the message text; images, audio and binary resources become attached files (named in the
 * text, so the model knows they exist); resource links are listed. Structured content is
 * shown as JSON when there is no text. Past the caps, text is cut and files are left out,
 * each with a note. A result flagged `isError` becomes a {@link ToolError} with its text.
 */
export function toToolResult(result: CallToolResult, tool: string): ToolResult {
  const texts: string[] = [];
  const files: ToolFile[] = [];
  const base = tool.replace(/[^A-Za-z0-9_-]/g, '_');
  const addFile = (name: string, type: string, data: string): void => {
    const bytes = decodeBase64(data);
    if (bytes === undefined) texts.push(`[${name}: not valid base64, left out]`);
    else if (bytes.byteLength > MAX_RESULT_FILE_BYTES) {
      texts.push(
        `[${name}: ${bytes.byteLength} bytes, over the ${MAX_RESULT_FILE_BYTES}-byte limit, left out]`,
      );
    } else if (files.length >= MAX_RESULT_FILES)
      texts.push(`[${name}: more than ${MAX_RESULT_FILES} files, left out]`);
    else {
      files.push({ name, type, data: bytes });
      texts.push(`[attached ${name} (${type}, ${bytes.byteLength} bytes)]`);
    }
  };
  for (const [index, item] of (result.content ?? []).entries()) {
    const n = index + 1;
    switch (item.type) {
      case 'text':
        texts.push(item.text);
        break;
      case 'image':
      case 'audio':
        addFile(`${base}-${item.type}-${n}.${EXTENSIONS[item.mimeType] ?? 'bin'}`, item.mimeType, item.data);
        break;
      case 'resource_link':
        texts.push(`[resource ${item.name}: ${item.uri}]`);
        break;
      case 'resource': {
        const { resource } = item;
        const inline = 'text' in resource ? resource.text : textOfBlob(resource.blob, resource.mimeType);
        // Text goes in the message: an attached text file would stand for the whole result.
        if (inline !== undefined)
          texts.push(`<resource uri=${JSON.stringify(resource.uri)}>\n${inline}\n</resource>`);
        else if ('blob' in resource)
          addFile(
            fileName(resource.uri, `${base}-resource-${n}`),
            resource.mimeType ?? 'application/octet-stream',
            resource.blob,
          );
        break;
      }
      default: {
        const never: never = item;
        texts.push(`[content of an unknown type left out: ${String((never as { type?: unknown }).type)}]`);
      }
    }
  }
  if (texts.length === 0 && result.structuredContent !== undefined) {
    texts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  const text = capText(texts.join('\n'));
  if (result.isError === true) {
    throw new ToolError(text === '' ? 'The tool reported an error.' : text.slice(0, MAX_ERROR_CHARS));
  }
  return { text: text === '' ? '(no output)' : text, files };
}

function capText(text: string): string {
  if (Buffer.byteLength(text) <= MAX_RESULT_TEXT_BYTES) return text;
  const cut = Buffer.from(text)
    .subarray(0, MAX_RESULT_TEXT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${cut}\n… (cut at ${MAX_RESULT_TEXT_BYTES} bytes)`;
}

/** The text of a base64 resource whose type is text, if it decodes as UTF-8. */
function textOfBlob(blob: string, type: string | undefined): string | undefined {
  const base = (type ?? '').split(';')[0]!.trim().toLowerCase();
  if (!base.startsWith('text/') && base !== 'application/json') return undefined;
  const bytes = decodeBase64(blob);
  if (bytes === undefined) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Strict base64 (Node's decoder skips what it does not understand, so check first). */
function decodeBase64(data: string): Uint8Array | undefined {
  const clean = data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  return Buffer.from(clean, 'base64');
}

/** A safe file name from a resource URI's last segment. */
function fileName(uri: string, fallback: string): string {
  let last = '';
  try {
    last = decodeURIComponent(new URL(uri).pathname.split('/').pop() ?? '');
  } catch {
    last = '';
  }
  const safe = last
    .replace(/[^\w.\- ]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 100);
  return safe === '' ? fallback : safe;
}
