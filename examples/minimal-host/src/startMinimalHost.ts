import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createBridge } from '@webbridge/server';
import { createEchoHost } from './createEchoHost.js';

// The web client's build, served at `/` (which answers 404 until `@webbridge/web` is built).
const webPackage = createRequire(import.meta.url).resolve('@webbridge/web/package.json');
const webClient = join(dirname(webPackage), 'dist');

/**
 * Embeds the bridge in the app: the echo's adapter, a fresh upload directory and the web client, on
 * loopback (plain HTTP; on another address the bridge speaks HTTPS). `close()` stops it all.
 */
export async function startMinimalHost(accessCode: string, { port = 0, wordDelayMs = 40 } = {}) {
  const uploadDir = await mkdtemp(join(tmpdir(), 'minimal-host-'));
  const host = createEchoHost(wordDelayMs);
  const bridge = createBridge({ host, accessCode, uploadDir, staticDir: webClient, logLevel: 'warn' });
  const { urls } = await bridge.listen({ port, hostname: '127.0.0.1' });
  const close = async () => {
    await bridge.stop();
    host.close();
    await rm(uploadDir, { recursive: true, force: true });
  };
  return { url: urls[0]!, host, close };
}
