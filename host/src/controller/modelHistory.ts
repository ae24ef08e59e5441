import type { Settings } from '@webbridge/contract';
import type { StoredMessage } from '../db/StoredMessage';
import type { ModelMessage, ModelTool } from '../models/ModelProvider';
import type { AttachmentFile } from './Attachments';
import type { ConversationTree } from './ConversationTree';
import { isToolEnabled, type Tool } from './tools/Tool';

/**
 * The history a model answers, root first. Each attachment carries its file's path when the
 * file exists, so a provider can read the content when it sends (outside the main executor).
 */
export function modelHistory(
  path: readonly StoredMessage[],
  tree: Pick<ConversationTree, 'attachmentsOf'>,
  fileOf: (attachmentId: string) => AttachmentFile | undefined,
): ModelMessage[] {
  return path.map((row): ModelMessage => {
    const message: ModelMessage = {
      id: row.id,
      parentId: row.parentId,
      role: row.role,
      text: row.text,
      attachments: tree.attachmentsOf(row.id).map((attachment) => {
        const file = fileOf(attachment.id);
        return file === undefined ? attachment : { ...attachment, path: file.path };
      }),
    };
    return row.tool === undefined
      ? message
      : { ...message, tool: { name: row.tool.name, args: row.tool.args } };
  });
}

/** The tools offered to a model: the enabled ones (a disabled tool is not even mentioned). */
export function offeredTools(tools: readonly Tool[], settings: Settings): ModelTool[] {
  return tools
    .filter((tool) => isToolEnabled(tool, settings))
    .map(({ name, description, parameters }) => ({ name, description, parameters }));
}
