import { randomInt } from 'node:crypto';

/**
 * Letters and digits that cannot be mistaken for one another when read off a screen and typed
 * on a phone: no 0/o, 1/l/i. 31 symbols, almost 5 bits each.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * A fresh access code a person can type: 10 characters of an unambiguous alphabet in two
 * groups (`k7pmq-rw3xz`), about 49 bits of entropy. With the bridge's throttling of failed
 * attempts that is far beyond guessing range.
 */
export function generateAccessCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) {
    if (i === 5) code += '-';
    code += ALPHABET[randomInt(ALPHABET.length)];
  }
  return code;
}
