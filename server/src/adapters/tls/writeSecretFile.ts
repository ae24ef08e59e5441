import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes `content` so that no other local user can read it at any moment (mode 0600 from the
 * first byte, in a 0700 folder) and no reader ever sees half a file (write, fsync, rename).
 */
export function writeSecretFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.part`;
  const fd = fs.openSync(partial, 'w', 0o600);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(partial, file);
}

/** Writes a file anyone may read (a certificate), without ever leaving half of it. */
export function writePublicFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.part`;
  fs.writeFileSync(partial, content, { mode: 0o644 });
  fs.renameSync(partial, file);
}
