import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { mockBridgePlugin } from './src/mocks/mockBridgePlugin';
import { serviceWorkerPlugin } from './src/sw/build/serviceWorkerPlugin';

const src = (pkg: string) => decodeURIComponent(new URL(`../${pkg}/src/index.ts`, import.meta.url).pathname);

export default defineConfig(() => ({
  // `vite` (dev) answers /api/ with the real bridge over an in-memory host (src/mocks); the
  // build also builds the service worker (src/sw) into /sw.js.
  plugins: [preact(), serviceWorkerPlugin(), mockBridgePlugin()],
  resolve: {
    // Built from the sources, like the tests, so the page never runs a stale SDK build.
    alias: {
      '@webbridge/client-sdk': src('client-sdk'),
      '@webbridge/contract': src('contract'),
      // Only the dev server's mock bridge (loaded in Node) imports it; the page never does.
      '@webbridge/server': src('server'),
    },
  },
  // The build copies public/ (manifest, icons, the offline page).
  publicDir: 'public',
  // Relative URLs throughout: the page works at the root of a name and under a base path
  // (`--public-url https://name/webbridge`, a proxy's or Tailscale Serve's mount point).
  base: './',
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
