import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './ToolError';

/**
 * Replaces a file's content all at once: the text goes to a temporary file in the same folder,
 * is flushed, and is renamed over the target. A reader (or a crash) sees the old file or the
 * new one, never half of each. A rename replaces a directory entry and never follows a link,
 * so a link planted at the target in between cannot redirect the write.
 */
export function writeAtomically(file: string, content: string, mode: number): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, mode);
  } catch {
    throw new ToolError('The file cannot be written.');
  }
  try {
    try {
      fs.writeSync(fd, content);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch {
    fs.rmSync(temp, { force: true });
    throw new ToolError('The file cannot be written.');
  }
}
