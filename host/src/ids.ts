import { randomBytes } from 'node:crypto';

/**
 * A fresh random id: 96 bits as 16 base64url characters. Short, because ids travel in every
 * delta frame, and random, so ids from two runs or two hosts never collide.
 */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}
