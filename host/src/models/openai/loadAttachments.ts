import { readFile, stat } from 'node:fs/promises';
import type { ModelAttachment, ModelMessage } from '../ModelProvider';

/** The content of an attachment as it is sent to a model. */
export type LoadedAttachment =
  | { readonly kind: 'text'; readonly text: string }
  /** A `data:` URL, for an `image_url` content part. */
  | { readonly kind: 'image'; readonly url: string };

/** Largest text file inlined into a message. */
const INLINE_TEXT_BYTES = 256 * 1024;
/** Largest image sent. */
const INLINE_IMAGE_BYTES = 5 * 1024 * 1024;
/** Most text inlined into one request, all messages together; older files past it are only named. */
const REQUEST_TEXT_BYTES = 1024 * 1024;
/** Most image bytes sent in one request; older images past it are only named. */
const REQUEST_IMAGE_BYTES = 20 * 1024 * 1024;

/** The first bytes of each image type sent, checked so a mislabelled file is only named. */
const IMAGE_MAGIC: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Whether an attachment's type is text a model can read inline. */
function isTextType(type: string): boolean {
  const base = type.split(';')[0]!.trim().toLowerCase();
  return base.startsWith('text/') || base === 'application/json';
}

/**
 * Reads what a request can carry of its attachments: text files (`text/*`, `application/json`,
 * up to 256 KiB, valid UTF-8 without NUL) and images (PNG, JPEG, GIF, WebP up to 5 MiB, with
 * matching magic bytes), newest messages first within a per-request budget. Files that are
 * missing, too large, of another type or past the budget are left out: the caller names them.
 * Reads happen here, asynchronously, so the main executor never waits on a disk.
 */
export async function loadAttachments(
  messages: readonly ModelMessage[],
  signal: AbortSignal,
): Promise<Map<string, LoadedAttachment>> {
  const loaded = new Map<string, LoadedAttachment>();
  let textBudget = REQUEST_TEXT_BYTES;
  let imageBudget = REQUEST_IMAGE_BYTES;
  for (const message of [...messages].reverse()) {
    if (message.role !== 'user' && message.role !== 'tool') continue;
    for (const attachment of message.attachments) {
      // Tool results are text; only a person's message carries pictures.
      const image = message.role === 'user' && attachment.type in IMAGE_MAGIC;
      const limit = image
        ? Math.min(INLINE_IMAGE_BYTES, imageBudget)
        : Math.min(INLINE_TEXT_BYTES, textBudget);
      if (!image && !isTextType(attachment.type)) continue;
      const bytes = await read(attachment, limit, signal);
      if (!bytes) continue;
      if (image) {
        if (!IMAGE_MAGIC[attachment.type]!(bytes)) continue;
        loaded.set(attachment.id, {
          kind: 'image',
          url: `data:${attachment.type};base64,${bytes.toString('base64')}`,
        });
        imageBudget -= bytes.length;
      } else {
        const text = asText(bytes);
        if (text === undefined) continue;
        loaded.set(attachment.id, { kind: 'text', text });
        textBudget -= bytes.length;
      }
    }
  }
  return loaded;
}

async function read(
  attachment: ModelAttachment,
  limit: number,
  signal: AbortSignal,
): Promise<Buffer | undefined> {
  if (attachment.path === undefined) return undefined;
  try {
    // The recorded size comes from the upload; the file on disk is what counts.
    const info = await stat(attachment.path);
    if (!info.isFile() || info.size > limit) return undefined;
    const bytes = await readFile(attachment.path, { signal });
    return bytes.length > limit ? undefined : bytes;
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}

function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
