import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Deletes the partial files an earlier run left behind (a crash or kill mid-upload): an
 * upload only ever becomes a file by being renamed once complete, so a `.part` file at start
 * belongs to no one.
 */
export async function removeStaleParts(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0; // no upload directory yet
  }
  const stale = names.filter((name) => name.startsWith('.') && name.endsWith('.part'));
  await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })));
  return stale.length;
}
