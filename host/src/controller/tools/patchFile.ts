import fs from 'node:fs';
import { resolveInWorkspace } from './resolveInWorkspace';
import { preview, stringArg, type Tool, type ToolArgs } from './Tool';
import { ToolError } from './ToolError';
import { writeAtomically } from './writeAtomically';
import { currentText } from './writeFile';

/** Largest file patched; a patch reads the whole file into memory. */
const MAX_BYTES = 4 * 1024 * 1024;
/** Most edits in one call. */
const MAX_EDITS = 100;

interface Edit {
  readonly find: string;
  readonly replace: string;
}

/**
 * `patch_file {path, find, replace}` or `patch_file {path, edits: [{find, replace}, …]}`:
 * exact-text replacements in a workspace file. Each `find` must occur exactly once in the text
 * as the earlier edits left it; otherwise nothing is written and the error says which edit
 * failed and why. The new text is written atomically. Needs approval.
 */
export const patchFile: Tool = {
  name: 'patch_file',
  description:
    'Change a text file of the project workspace by exact-text replacement. Give either find and ' +
    'replace, or edits: a list of {find, replace} applied in order. Each find must occur exactly ' +
    'once (include surrounding lines to make it unique); otherwise nothing is changed.',
  needsApproval: true,
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path relative to the workspace root.' },
      find: { type: 'string', description: 'The exact text to replace; it must occur exactly once.' },
      replace: { type: 'string', description: 'The text to put in its place.' },
      edits: {
        type: 'array',
        description: 'Several replacements, applied in order (instead of find and replace).',
        items: {
          type: 'object',
          properties: { find: { type: 'string' }, replace: { type: 'string' } },
          required: ['find', 'replace'],
          additionalProperties: false,
        },
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  summarize: (args) => {
    const edits = Array.isArray(args.edits) ? args.edits : undefined;
    if (edits) return `Patch ${preview(args.path)} (${edits.length} edit${edits.length === 1 ? '' : 's'})`;
    return `Patch ${preview(args.path)}: ${preview(args.find, 40)} → ${preview(args.replace, 40)}`;
  },
  diffs(args, workspace) {
    try {
      const file = resolveInWorkspace(workspace, stringArg(args, 'path'));
      const text = currentText(file);
      if (text === null) return [];
      let next = text;
      for (const edit of editsOf(args)) {
        const at = next.indexOf(edit.find);
        if (at < 0) return [];
        next = next.slice(0, at) + edit.replace + next.slice(at + edit.find.length);
      }
      return [{ path: file, oldText: text, newText: next }];
    } catch {
      return [];
    }
  },
  run(args, { workspace }) {
    const requested = stringArg(args, 'path');
    const edits = editsOf(args);
    const file = resolveInWorkspace(workspace, requested);
    const { text, mode } = readForPatch(file);
    let next = text;
    const lines: number[] = [];
    edits.forEach((edit, index) => {
      const label = edits.length === 1 ? 'The text to find' : `Edit ${index + 1}: the text to find`;
      const at = next.indexOf(edit.find);
      if (at < 0) throw new ToolError(`${label} does not occur in ${requested}; nothing was changed.`);
      const count = occurrences(next, edit.find);
      if (count > 1) {
        throw new ToolError(
          `${label} occurs ${count} times in ${requested}; include more surrounding text so it ` +
            'matches once. Nothing was changed.',
        );
      }
      lines.push(lineOf(next, at));
      // slice, not String.replace: `$&` and friends in the replacement must stay literal.
      next = next.slice(0, at) + edit.replace + next.slice(at + edit.find.length);
    });
    if (next !== text) writeAtomically(file, next, mode);
    const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
    return `Patched ${requested}: ${edits.length} edit${edits.length === 1 ? '' : 's'} (at ${where}).`;
  },
};

function editsOf(args: ToolArgs): Edit[] {
  const single = args.find !== undefined || args.replace !== undefined;
  if (args.edits !== undefined) {
    if (single) throw new ToolError('Give either find and replace, or edits, not both.');
    if (!Array.isArray(args.edits) || args.edits.length === 0) {
      throw new ToolError('The argument "edits" must be a non-empty list of {find, replace}.');
    }
    if (args.edits.length > MAX_EDITS) throw new ToolError(`At most ${MAX_EDITS} edits fit in one call.`);
    return args.edits.map((edit: unknown, index) => {
      const item = (typeof edit === 'object' && edit !== null ? edit : {}) as ToolArgs;
      if (typeof item.find !== 'string' || typeof item.replace !== 'string') {
        throw new ToolError(`Edit ${index + 1} must have a string find and a string replace.`);
      }
      return checked({ find: item.find, replace: item.replace }, index);
    });
  }
  return [checked({ find: stringArg(args, 'find'), replace: stringArg(args, 'replace') }, undefined)];
}

function checked(edit: Edit, index: number | undefined): Edit {
  if (edit.find === '') {
    throw new ToolError(`${index === undefined ? 'The' : `Edit ${index + 1}: the`} text to find is empty.`);
  }
  return edit;
}

function readForPatch(file: string): { text: string; mode: number } {
  let fd: number;
  try {
    // O_NOFOLLOW: the path was checked, but its last component must not become a link in between.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch {
    throw new ToolError('That file does not exist in the workspace.');
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new ToolError('That path is not a file.');
    if (stat.size > MAX_BYTES) throw new ToolError(`Files over ${MAX_BYTES} bytes are not patched.`);
    const buffer = Buffer.alloc(stat.size);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, read);
    if (bytes.includes(0)) throw new ToolError('That file is binary; only text files are patched.');
    return { text: bytes.toString('utf8'), mode: stat.mode & 0o7777 };
  } finally {
    fs.closeSync(fd);
  }
}

function occurrences(text: string, find: string): number {
  let count = 0;
  for (let at = text.indexOf(find); at >= 0; at = text.indexOf(find, at + 1)) count++;
  return count;
}

function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
