import fs from 'node:fs';
import { resolveInWorkspace } from './resolveInWorkspace';
import { preview, stringArg, type Tool } from './Tool';
import { ToolError } from './ToolError';

/** Largest part of a file returned, in bytes; the rest is cut with a note. */
const MAX_BYTES = 256 * 1024;

/** `read_file {path}`: the text of a file in the workspace. */
export const readFile: Tool = {
  name: 'read_file',
  description: 'Read a text file of the project workspace.',
  needsApproval: false,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Path relative to the workspace root.' } },
    required: ['path'],
    additionalProperties: false,
  },
  summarize: (args) => `Read ${preview(args.path)}`,
  run(args, { workspace }) {
    const file = resolveInWorkspace(workspace, stringArg(args, 'path'));
    let fd: number;
    try {
      // O_NOFOLLOW: the last component was checked, but it must not become a link in between.
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch {
      throw new ToolError('That file does not exist in the workspace.');
    }
    try {
      if (!fs.fstatSync(fd).isFile()) throw new ToolError('That path is not a file.');
      const buffer = Buffer.alloc(MAX_BYTES + 1);
      const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
      const text = buffer.subarray(0, Math.min(read, MAX_BYTES)).toString('utf8');
      return read > MAX_BYTES ? `${text}\n… (cut at ${MAX_BYTES} bytes)` : text;
    } finally {
      fs.closeSync(fd);
    }
  },
};
