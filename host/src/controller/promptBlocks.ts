import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { StoredAttachment } from '../db/AttachmentTable';
import type { PromptBuilder, PromptCapabilities } from './AgentSessions';
import { notApplicable } from './errors';

/** What a file attached to a prompt needs the agent to take. */
function needOf(file: Pick<StoredAttachment, 'type'>): 'image' | 'audio' | 'embeddedContext' {
  if (file.type.startsWith('image/')) return 'image';
  if (file.type.startsWith('audio/')) return 'audio';
  return 'embeddedContext';
}

const WORDS = { image: 'images', audio: 'audio', embeddedContext: 'attached files' } as const;

/**
 * Throws 422 naming what the agent cannot take among `files` (an image for an agent without
 * image prompts, a file for one without embedded context). Checked at send when the agent's
 * capabilities are known, and again when the prompt is built.
 */
export function assertAgentTakes(
  agentId: string,
  files: readonly Pick<StoredAttachment, 'type' | 'name'>[],
  can: PromptCapabilities,
): void {
  for (const file of files) {
    const need = needOf(file);
    if (!can[need]) {
      throw notApplicable(
        `The agent "${agentId}" cannot take ${WORDS[need]}: send it without "${file.name}".`,
      );
    }
  }
}

/**
 * The `session/prompt` blocks of a user message: its text, then each attachment as an image,
 * audio or embedded resource block (text files as text, others base64).
 */
export function promptBlocks(
  agentId: string,
  text: string,
  files: readonly StoredAttachment[],
): PromptBuilder {
  return async (can) => {
    assertAgentTakes(agentId, files, can);
    const blocks: ContentBlock[] = text === '' ? [] : [{ type: 'text', text }];
    for (const file of files) {
      const data = await readFile(file.path);
      const need = needOf(file);
      if (need === 'image')
        blocks.push({ type: 'image', mimeType: file.type, data: data.toString('base64') });
      else if (need === 'audio')
        blocks.push({ type: 'audio', mimeType: file.type, data: data.toString('base64') });
      else {
        // The file's name, not its place in the host's upload folder, which the agent has no business knowing.
        const uri = pathToFileURL(`/${file.name}`).href;
        const textual = file.type.startsWith('text/') || file.type === 'application/json';
        blocks.push({
          type: 'resource',
          resource: textual
            ? { uri, mimeType: file.type, text: data.toString('utf8') }
            : { uri, mimeType: file.type, blob: data.toString('base64') },
        });
      }
    }
    return blocks;
  };
}
