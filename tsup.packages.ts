import { defineConfig } from 'tsup';

/**
 * How contract, server and client-sdk build for publishing: ESM for Node 20+, and the
 * declarations that `tsc -b tsconfig.lib.json` already emitted and checked, rolled into one
 * file (their relative imports have no extensions, which Node's ESM resolution would not follow).
 */
export const publishedPackage = defineConfig({
  entry: { index: 'src/index.ts' },
  format: 'esm',
  target: 'node20',
  clean: true,
  dts: { entry: { index: '.tsbuild/src/index.d.ts' } },
});
