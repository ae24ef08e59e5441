// `node:crypto` for the bridge when it runs in the page (`vite --mode mock` aliases it here):
// the few synchronous calls the bridge's guards, devices and media ids make (SHA-256, its HMAC,
// random bytes, a constant-time compare). Web Crypto's digest is asynchronous and the guards
// are synchronous, so SHA-256 is computed here (FIPS 180-4); never part of the production build.

/** Bytes with the two encodings the bridge asks for, like Node's Buffer. */
class Bytes extends Uint8Array {
  override toString(encoding?: string): string {
    if (encoding === 'hex') return [...this].map((b) => b.toString(16).padStart(2, '0')).join('');
    if (encoding === 'base64url' || encoding === 'base64') {
      const base64 = btoa(String.fromCharCode(...this));
      return encoding === 'base64'
        ? base64
        : base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    }
    return new TextDecoder().decode(this);
  }
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const bytesOf = (data: string | Uint8Array): Uint8Array =>
  typeof data === 'string' ? new TextEncoder().encode(data) : data;

/** SHA-256 of `data`. */
function sha256(data: Uint8Array): Bytes {
  const length = data.length;
  const padded = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
    h[5] = (h[5]! + f) >>> 0;
    h[6] = (h[6]! + g) >>> 0;
    h[7] = (h[7]! + hh) >>> 0;
  }
  const out = new Bytes(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}

/** HMAC-SHA-256 (RFC 2104). */
function hmacSha256(key: Uint8Array, data: Uint8Array): Bytes {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + data.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(data, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

type Encoding = 'hex' | 'base64url' | 'buffer';
const encode = (bytes: Bytes, encoding: Encoding | undefined): string | Bytes =>
  encoding === undefined || encoding === 'buffer' ? bytes : bytes.toString(encoding);

/** `crypto.hash('sha256', data, encoding)`. */
export function hash(_algorithm: 'sha256', data: string | Uint8Array, encoding: Encoding = 'hex'): never {
  return encode(sha256(bytesOf(data)), encoding) as never;
}

/** A hash or HMAC in the `update().digest()` form. */
function digester(compute: (data: Uint8Array) => Bytes) {
  const parts: Uint8Array[] = [];
  const api = {
    update(data: string | Uint8Array) {
      parts.push(bytesOf(data));
      return api;
    },
    digest(encoding?: Encoding): never {
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const part of parts) {
        all.set(part, at);
        at += part.length;
      }
      return encode(compute(all), encoding) as never;
    },
  };
  return api;
}

/** `crypto.createHash('sha256')`. */
export const createHash = (_algorithm: 'sha256') => digester(sha256);

/** `crypto.createHmac('sha256', key)`. */
export const createHmac = (_algorithm: 'sha256', key: string | Uint8Array) =>
  digester((data) => hmacSha256(bytesOf(key), data));

/** `crypto.randomBytes(size)`, from the page's Web Crypto. */
export const randomBytes = (size: number): Bytes => globalThis.crypto.getRandomValues(new Bytes(size));

/** `crypto.randomUUID()`. */
export const randomUUID = (): string => globalThis.crypto.randomUUID();

/** `crypto.timingSafeEqual(a, b)`: throws on different lengths, as Node does. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) throw new RangeError('Input buffers must have the same byte length');
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
