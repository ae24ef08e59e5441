import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const src = (pkg: string) => decodeURIComponent(new URL(`../${pkg}/src/index.ts`, import.meta.url).pathname);

export default defineConfig(({ command }) => ({
  plugins: [preact()],
  resolve: {
    // Built from the sources, like the tests, so the page never runs a stale SDK build.
    alias: {
      '@webbridge/client-sdk': src('client-sdk'),
      '@webbridge/contract': src('contract'),
    },
  },
  // The MSW service worker exists only for `vite` (dev); the production build has no public dir.
  publicDir: command === 'serve' ? 'mocks-public' : false,
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
