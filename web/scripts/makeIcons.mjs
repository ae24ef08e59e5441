// Draws the app's icons (a bridge on the accent colour) into web/public/icons as PNGs, with no
// dependency: `node web/scripts/makeIcons.mjs`. The PNGs are committed; run this again only
// when the drawing changes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const ACCENT = [0x2f, 0x5f, 0xd0];
const WHITE = [0xff, 0xff, 0xff];
const SAMPLES = 4;

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};

/** Is the point (x, y), in 0..1 of the drawing's box, on the bridge? */
function onBridge(x, y) {
  const deck = y >= 0.6 && y <= 0.68 && x >= 0.12 && x <= 0.88;
  const r = Math.hypot(x - 0.5, y - 1.02);
  const arch = Math.abs(r - 0.66) <= 0.045 && y <= 0.62 && x >= 0.12 && x <= 0.88;
  const archTop = 1.02 - Math.sqrt(Math.max(0, 0.66 ** 2 - (x - 0.5) ** 2));
  const hanger = [0.3, 0.5, 0.7].some((hx) => Math.abs(x - hx) <= 0.022) && y >= archTop && y <= 0.62;
  const pillar = ((x >= 0.18 && x <= 0.27) || (x >= 0.73 && x <= 0.82)) && y >= 0.66 && y <= 0.86;
  return deck || arch || hanger || pillar;
}

/** An RGBA PNG: `maskable` fills the square and keeps the bridge in the safe circle. */
function icon(size, maskable) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  const inset = maskable ? 0.22 : 0.14;
  const corner = 0.2;
  for (let py = 0; py < size; py++) {
    const row = py * (size * 4 + 1);
    for (let px = 0; px < size; px++) {
      let cover = 0;
      let ink = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const u = (px + (sx + 0.5) / SAMPLES) / size;
          const v = (py + (sy + 0.5) / SAMPLES) / size;
          const cx = Math.min(Math.max(u, corner), 1 - corner);
          const cy = Math.min(Math.max(v, corner), 1 - corner);
          const inside = maskable || Math.hypot(u - cx, v - cy) <= corner;
          if (!inside) continue;
          cover++;
          if (onBridge((u - inset) / (1 - 2 * inset), (v - inset) / (1 - 2 * inset))) ink++;
        }
      }
      const at = row + 1 + px * 4;
      const t = cover === 0 ? 0 : ink / cover;
      for (let c = 0; c < 3; c++) raw[at + c] = Math.round(ACCENT[c] * (1 - t) + WHITE[c] * t);
      raw[at + 3] = Math.round((255 * cover) / SAMPLES ** 2);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(out, { recursive: true });
for (const [name, size, maskable] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-192.png', 192, true],
  ['maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
]) {
  writeFileSync(join(out, name), icon(size, maskable));
}
