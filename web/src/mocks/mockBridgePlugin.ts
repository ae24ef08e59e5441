import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Plugin } from 'vite';
import type { MockBridge, MockBridgeOptions } from './createMockBridge';

/**
 * `vite` (dev) only: the dev server answers `/api/` with the mock bridge, the real bridge over
 * the in-memory host, running in the dev process, so `pnpm dev:web` needs no host. The bridge's
 * sources are loaded through Vite's SSR loader (no build of the server first), and only when the
 * dev server starts: `vite build` never loads them, and the page never imports them.
 * `VITE_MOCKS=off` turns it off (then point the page at a real host).
 */
export function mockBridgePlugin(options: MockBridgeOptions = {}): Plugin {
  return {
    name: 'webbridge-mock-bridge',
    apply: 'serve',
    async configureServer(server) {
      if (process.env.VITE_MOCKS === 'off') return;
      const loaded = await server.ssrLoadModule(new URL('./createMockBridge.ts', import.meta.url).pathname);
      const bridge = (loaded as typeof import('./createMockBridge')).createMockBridge(options);
      server.middlewares.use((req, res, next) => {
        if (!req.url?.startsWith('/api/')) return next();
        answer(bridge, req, res).catch(next);
      });
      server.httpServer?.once('close', () => void bridge.close());
      server.config.logger.info('  mock bridge: /api/ answered in this process; access code "mock"');
    },
  };
}

/** Hands a Node request to the bridge's fetch and streams its response back (SSE included). */
async function answer(bridge: MockBridge, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const aborted = new AbortController();
  res.once('close', () => aborted.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: aborted.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  const response = await bridge.fetch(new Request(`http://localhost${req.url}`, init));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  res.once('close', () => body.destroy());
  body.pipe(res);
}
