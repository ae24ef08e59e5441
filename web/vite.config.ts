import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { bundleGuardPlugin } from './src/mocks/bundleGuardPlugin';
import { mockModePlugin } from './src/mocks/mockModePlugin';
import { serviceWorkerPlugin } from './src/sw/build/serviceWorkerPlugin';

const src = (pkg: string) => decodeURIComponent(new URL(`../${pkg}/src/index.ts`, import.meta.url).pathname);

export default defineConfig(() => ({
  // `--mode mock` (`pnpm dev:web`) answers /api/ in the page itself: the real bridge over a
  // scripted in-memory host, behind MSW's worker (src/mocks/mockModePlugin.ts). The build also
  // builds the service worker (src/sw) into /sw.js; any other build fails if a chunk holds a
  // module of the bridge, the mocks or MSW (bundleGuardPlugin).
  plugins: [preact(), serviceWorkerPlugin(), mockModePlugin(), bundleGuardPlugin()],
  resolve: {
    // Built from the sources, like the tests, so the page never runs a stale SDK build.
    alias: {
      '@webbridge/client-sdk': src('client-sdk'),
      '@webbridge/contract': src('contract'),
      // Only the mocks import it (the page in mock mode, on its web entry: mockModePlugin).
      '@webbridge/server': src('server'),
    },
  },
  // The build copies public/ (manifest, icons, the offline page).
  publicDir: 'public',
  // Relative URLs throughout: the page works at the root of a name and under a base path
  // (`--public-url https://name/webbridge`, a proxy's or Tailscale Serve's mount point).
  base: './',
  // Workers as ES modules (started with `type: 'module'`): the diff worker loads its file's
  // grammar on demand, a chunk of its own, which a classic worker's single script cannot.
  worker: { format: 'es' as const },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    // KaTeX's small fonts would be inlined as data: URLs, which the page's policy refuses
    // (default-src 'self'): every font is a file served by the app.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
  },
}));
