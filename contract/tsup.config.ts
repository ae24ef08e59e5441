import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: 'esm',
  target: 'node20',
  clean: true,
  // The declarations are the ones `tsc -b tsconfig.lib.json` already emitted and checked,
  // rolled into one file (their relative imports have no extensions, which Node's ESM
  // resolution would not follow).
  dts: { entry: { index: '.tsbuild/src/index.d.ts' } },
});
