import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** The Vite mode that runs the page on its offline host: `vite --mode mock` (`pnpm dev:web`). */
export const MOCK_MODE = 'mock';

const here = (path: string) => decodeURIComponent(new URL(path, import.meta.url).pathname);
const WORKER_FILE = 'mockServiceWorker.js';
/** The page's entry as the mock entry imports it (src/mocks/browser/virtualPage.d.ts). */
const PAGE_ID = 'virtual:webbridge-page';

/**
 * In the `mock` mode only (dev server or build), the page answers its own `/api/`: the entry
 * becomes src/mocks/browser/mockMain.ts (MSW's worker, then the page), `@webbridge/server`
 * resolves to its web-standard entry (server/src/web.ts), the few `node:` modules the bridge's
 * core still imports resolve to the page's stand-ins (src/mocks/browser/node/), and MSW's
 * worker script is served (and, in a mock build, emitted) from the msw package itself, so it
 * never drifts from the library's version. In any other mode this plugin does nothing: the
 * production build's graph has no path to any of it (bundleGuardPlugin.ts fails such a build).
 */
export function mockModePlugin(): Plugin {
  let active = false;
  const worker = () => readFileSync(createRequire(import.meta.url).resolve(`msw/${WORKER_FILE}`), 'utf8');
  return {
    name: 'webbridge-mock-mode',
    config(_config, { mode }) {
      active = mode === MOCK_MODE;
      if (!active) return;
      return {
        resolve: {
          alias: [
            { find: /^@webbridge\/server$/, replacement: here('../../../server/src/web.ts') },
            { find: /^node:crypto$/, replacement: here('./browser/node/crypto.ts') },
            { find: /^node:fs$/, replacement: here('./browser/node/fs.ts') },
            { find: /^node:net$/, replacement: here('./browser/node/net.ts') },
          ],
        },
      };
    },
    resolveId(id) {
      return active && id === PAGE_ID ? here('../main.tsx') : undefined;
    },
    // Before Vite reads the page's scripts, so the build bundles the mock entry.
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => (active ? html.replace('/src/main.tsx', '/src/mocks/browser/mockMain.ts') : html),
    },
    configureServer(server) {
      if (!active) return;
      server.middlewares.use(`/${WORKER_FILE}`, (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.end(worker());
      });
      server.config.logger.info('  mock mode: /api/ answered in the page by the bridge; access code "mock"');
    },
    generateBundle() {
      if (active) this.emitFile({ type: 'asset', fileName: WORKER_FILE, source: worker() });
    },
  };
}
