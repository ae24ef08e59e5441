import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createBridge } from '@webbridge/server';
import { createEchoHost } from './createEchoHost.js';

export { createEchoHost };

const newCode = () => randomBytes(12).toString('base64url');
/**
 * Embeds the bridge in the app: the echo's adapter, a fresh upload directory, the built web client of
 * `@webbridge/web` when there is one, listening on loopback (plain HTTP). `close()` stops it all.
 */
export async function startMinimalHost({ port = 0, accessCode = newCode(), wordDelayMs = 40 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'minimal-host-'));
  const host = createEchoHost(wordDelayMs);
  const web = join(dirname(createRequire(import.meta.url).resolve('@webbridge/web/package.json')), 'dist');
  const staticDir = existsSync(join(web, 'index.html')) ? { staticDir: web } : {};
  const uploadDir = join(dir, 'uploads');
  const bridge = createBridge({ host, accessCode, uploadDir, logLevel: 'warn', ...staticDir });
  const { urls } = await bridge.listen({ port, hostname: '127.0.0.1' });
  const close = async () => {
    await bridge.stop();
    host.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { url: urls[0]!, accessCode, host, close };
}
