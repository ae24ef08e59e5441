import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { shellPlugin } from './src/pwa/shellPlugin';

const src = (pkg: string) => decodeURIComponent(new URL(`../${pkg}/src/index.ts`, import.meta.url).pathname);

export default defineConfig(({ command }) => ({
  plugins: [preact(), shellPlugin()],
  resolve: {
    // Built from the sources, like the tests, so the page never runs a stale SDK build.
    alias: {
      '@webbridge/client-sdk': src('client-sdk'),
      '@webbridge/contract': src('contract'),
    },
  },
  // The MSW service worker exists only for `vite` (dev); the build copies public/ (manifest,
  // icons, the app's service worker, the offline page).
  publicDir: command === 'serve' ? 'mocks-public' : 'public',
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
