import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type ResolvedConfig, runnerImport } from 'vite';

/** A short, stable hash of a text (FNV-1a, 32 bits, hex). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The worker's entry, built after the page. */
const ENTRY = fileURLToPath(new URL('../sw.ts', import.meta.url));
/** A component's own module: a screen split out of the entry, precached with it. */
const SCREEN = /[\\/]web[\\/]src[\\/]components[\\/][^\\/]+\.tsx$/;
/** Its strings, read from the catalogues when it is built. */
const CATALOGUES = fileURLToPath(new URL('./workerCatalogues.ts', import.meta.url));

/**
 * The worker's keys of every catalogue. Loaded through Vite (the catalogues import the SDK's
 * sources by alias, which Node alone cannot run), at build time only.
 */
async function loadWorkerCatalogues(config: ResolvedConfig) {
  const { module } = await runnerImport<typeof import('./workerCatalogues')>(CATALOGUES, {
    configFile: false,
    logLevel: 'warn',
    resolve: { alias: config.resolve.alias },
  });
  return module.workerCatalogues();
}

/**
 * Builds the service worker (web/src/sw/sw.ts) after the page, into `sw.js` beside it: one
 * classic script (a worker registered without `type: 'module'` imports nothing), minified, at
 * the URL and scope it always had. The build fills in `__WORKER_SHELL__`, the files the first
 * paint needs (the entry chunk, its static imports and their CSS) and the screens split out of
 * the entry, `__WORKER_BUILD__`, a hash of
 * every emitted file name (they carry content hashes) and of the public files the worker keeps,
 * and `__WORKER_CATALOGUES__`, the worker's keys of every catalogue. Lazy chunks (markdown,
 * highlighting, KaTeX) are stored when first fetched.
 */
export function serviceWorkerPlugin(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'webbridge:service-worker',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle(options, bundle) {
      if (config === undefined) throw new Error('the service worker plugin ran before its config');
      const outDir = options.dir ?? config.build.outDir;
      const shell = new Set<string>();
      const visit = (fileName: string) => {
        const item = bundle[fileName];
        // Relative to the worker (which lives beside them), so a base path needs nothing.
        if (item?.type !== 'chunk' || shell.has(fileName)) return;
        shell.add(fileName);
        for (const css of item.viteMetadata?.importedCss ?? []) shell.add(css);
        for (const imported of item.imports) visit(imported);
      };
      for (const item of Object.values(bundle))
        if (item.type === 'chunk' && item.isEntry) visit(item.fileName);
      // The screens split out of the entry (render/lazyComponent.ts: the find bar, the settings'
      // fields, …) are part of the app as much as the entry is: stored at install with it, so
      // an updated app opens them without the network. Markdown, highlighting, KaTeX and the
      // other languages' catalogues stay stored when first fetched.
      for (const fileName of [...shell]) {
        const item = bundle[fileName];
        if (item?.type !== 'chunk') continue;
        for (const lazy of item.dynamicImports) {
          const chunk = bundle[lazy];
          if (chunk?.type === 'chunk' && SCREEN.test(chunk.facadeModuleId ?? '')) visit(lazy);
        }
      }
      const publicFiles = ['manifest.webmanifest', 'offline.html', 'offline.css', 'offline.js']
        .map((name) => readFileSync(join(outDir, name), 'utf8'))
        .join('\n');
      const buildHash = hash([...Object.keys(bundle)].sort().join('\n') + publicFiles);
      await build({
        configFile: false,
        root: config.root,
        mode: config.mode,
        logLevel: 'warn',
        publicDir: false,
        resolve: { alias: config.resolve.alias },
        define: {
          __WORKER_BUILD__: JSON.stringify(buildHash),
          __WORKER_SHELL__: JSON.stringify([...shell]),
          __WORKER_CATALOGUES__: JSON.stringify(await loadWorkerCatalogues(config)),
        },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          target: config.build.target,
          minify: true,
          rolldownOptions: {
            input: ENTRY,
            output: { format: 'iife', entryFileNames: 'sw.js' },
            // contract/ only declares schemas: the worker takes the push payload's and what it
            // is made of, not every request's and event's (zod's builders are calls, which a
            // bundler must otherwise keep).
            treeshake: {
              moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
              manualPureFunctions: ['z'],
            },
          },
        },
      });
    },
  };
}
