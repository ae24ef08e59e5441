// The bridge's device check (server/src/devices/Devices.ts) compares hex digests as Node
// Buffers. In the page (mock mode only) a global `Buffer.from(hex, 'hex')` is all it needs.
import { randomBytes } from './node/crypto';

const fromHex = (text: string): Uint8Array => {
  const bytes = randomBytes(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
};

if (!('Buffer' in globalThis)) {
  Object.assign(globalThis, {
    Buffer: {
      from(text: string, encoding: string) {
        if (encoding !== 'hex') throw new Error(`the page's Buffer reads hex only, not ${encoding}`);
        return fromHex(text);
      },
    },
  });
}
