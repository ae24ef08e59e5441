import fs from 'node:fs';
import path from 'node:path';
import { resolveInWorkspace } from './resolveInWorkspace';
import { preview, stringArg, type Tool } from './Tool';
import { ToolError } from './ToolError';

/** `write_file {path, content}`: creates or replaces a file in the workspace. Needs approval. */
export const writeFile: Tool = {
  name: 'write_file',
  description: 'Create or replace a text file in the project workspace.',
  needsApproval: true,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path relative to the workspace root.' },
      content: { type: 'string', description: 'The complete new text of the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  summarize: (args) => {
    const size = typeof args.content === 'string' ? Buffer.byteLength(args.content) : 0;
    return `Write ${size} bytes to ${preview(args.path)}`;
  },
  diffs(args, workspace) {
    try {
      const file = resolveInWorkspace(workspace, stringArg(args, 'path'));
      return [{ path: file, oldText: currentText(file), newText: stringArg(args, 'content') }];
    } catch {
      return [];
    }
  },
  run(args, { workspace }) {
    const content = stringArg(args, 'content');
    const file = resolveInWorkspace(workspace, stringArg(args, 'path'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let fd: number;
    try {
      // O_NOFOLLOW closes the gap between the check above and the write: a link planted at the
      // last component in between makes the open fail instead of writing through it.
      fd = fs.openSync(
        file,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW,
        0o644,
      );
    } catch {
      throw new ToolError('The file cannot be written.');
    }
    try {
      fs.writeSync(fd, content);
    } finally {
      fs.closeSync(fd);
    }
    return `Wrote ${Buffer.byteLength(content)} bytes to ${stringArg(args, 'path')}.`;
  },
};

/** Largest file whose text an approval shows as the diff's old side. */
const MAX_DIFF_BYTES = 1024 * 1024;

/** A file's text before a change: null when it does not exist; throws when it is too large to show. */
export function currentText(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  if (!stat.isFile() || stat.size > MAX_DIFF_BYTES) throw new ToolError('The file is too large to show.');
  return fs.readFileSync(file, 'utf8');
}
