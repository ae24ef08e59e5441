import { defineConfig } from 'tsup';

/**
 * The example builds like the published packages (tsup.packages.ts): ESM for Node 20+, its
 * program (`main`), and the declarations `tsc -b` emitted and checked for its export, rolled
 * into dist/startMinimalHost.d.ts.
 */
export default defineConfig({
  entry: { startMinimalHost: 'src/startMinimalHost.ts', main: 'src/main.ts' },
  format: 'esm',
  target: 'node20',
  clean: true,
  dts: { entry: { startMinimalHost: '.tsbuild/src/startMinimalHost.d.ts' } },
});
