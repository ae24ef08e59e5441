import fs from 'node:fs';
import { resolveInWorkspace } from './resolveInWorkspace';
import { optionalStringArg, preview, type Tool } from './Tool';
import { ToolError } from './ToolError';

/** Most entries listed in one call, so a huge folder cannot flood the conversation. */
const MAX_ENTRIES = 500;

/** `list_files {path?}`: the entries of a folder in the workspace (folders end with `/`). */
export const listFiles: Tool = {
  name: 'list_files',
  description: 'List the files and folders in a folder of the project workspace.',
  needsApproval: false,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Folder relative to the workspace root (default: the root).' },
    },
    additionalProperties: false,
  },
  summarize: (args) => `List files in ${preview(args.path ?? '.')}`,
  run(args, { workspace }) {
    const folder = resolveInWorkspace(workspace, optionalStringArg(args, 'path') ?? '.');
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      throw new ToolError('That folder does not exist in the workspace.');
    }
    const names = entries
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort((a, b) => a.localeCompare(b));
    if (names.length === 0) return '(empty folder)';
    const shown = names.slice(0, MAX_ENTRIES).join('\n');
    return names.length > MAX_ENTRIES ? `${shown}\n… and ${names.length - MAX_ENTRIES} more` : shown;
  },
};
