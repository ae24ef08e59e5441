import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { writeSecretFile } from '@webbridge/server';

/** Bytes of a binding key (HMAC-SHA-256's block-sized keys gain nothing past 32). */
const KEY_BYTES = 32;

/**
 * The key the device store's code binding is made with, kept in `file` (base64url, mode 0600)
 * beside the database and never in it: a copy of the database alone then cannot confirm a
 * guessed access code. Made on first use; a file found readable by others is made 0600 again,
 * like the kept codes. A file that holds no key (damaged, emptied) is replaced by a new key, so
 * the kept binding no longer matches and the devices it bound are forgotten rather than trusted.
 *
 * @example
 * ```ts
 * const key = bindingKey('/home/me/.webbridge/device-binding.key'); // 32 random bytes, the same next run
 * ```
 */
export function bindingKey(file: string): Buffer {
  try {
    fs.chmodSync(file, 0o600);
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
    if (key.length === KEY_BYTES) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(KEY_BYTES);
  writeSecretFile(file, `${key.toString('base64url')}\n`);
  return key;
}
