import { defineConfig } from 'tsup';

/**
 * The host builds like the published packages (tsup.packages.ts), with a second entry, the
 * `webbridge` CLI: ESM for Node 20+, and the declarations `tsc -b tsconfig.lib.json` emitted
 * and checked, rolled into dist/index.d.ts (the CLI is a program: no declarations).
 */
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: 'esm',
  target: 'node20',
  clean: true,
  dts: { entry: { index: '.tsbuild/src/index.d.ts' } },
});
