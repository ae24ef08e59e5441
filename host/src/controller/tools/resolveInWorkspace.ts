import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../../workspace/isInside';
import { ToolError } from './ToolError';

/**
 * Resolves a path a model gave a tool to an absolute path inside the project's workspace.
 * Refuses absolute paths, `..` escapes and symlinks (anywhere along the path, including a
 * dangling one at the end) that lead outside. A path that does not exist yet is checked
 * through its deepest existing ancestor, so `write_file` can create files and folders.
 *
 * @example
 * ```ts
 * resolveInWorkspace('/home/me/ws', 'notes/today.md'); // '/home/me/ws/notes/today.md'
 * resolveInWorkspace('/home/me/ws', '../.ssh/id_rsa'); // throws ToolError
 * ```
 */
export function resolveInWorkspace(workspace: string, requested: string): string {
  if (requested.includes('\0')) throw new ToolError('The path contains a NUL character.');
  if (path.isAbsolute(requested) || /^[a-zA-Z]:[\\/]/.test(requested)) {
    throw new ToolError('Paths are relative to the project workspace; absolute paths are refused.');
  }
  let root: string;
  try {
    root = fs.realpathSync(workspace);
  } catch {
    throw new ToolError('The project workspace folder does not exist.');
  }
  const target = path.resolve(root, requested);
  if (!isInside(root, target)) throw new ToolError(`The path "${requested}" leaves the project workspace.`);

  // Walk up to the deepest part of the path that exists and resolve its symlinks: anything
  // below it does not exist yet, so it cannot be a link.
  let existing = target;
  for (;;) {
    const stat = lstatOrUndefined(existing);
    if (stat?.isSymbolicLink() && !existsThroughLink(existing)) {
      throw new ToolError(`The path "${requested}" is a broken link.`);
    }
    if (stat) break;
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  const real = fs.realpathSync(existing);
  if (!isInside(root, real))
    throw new ToolError(`The path "${requested}" leads outside the project workspace.`);
  return path.join(real, path.relative(existing, target));
}

function lstatOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

function existsThroughLink(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}
