import { defineConfig } from 'tsup';
import { publishedPackage } from '../tsup.packages';

/**
 * The published build (../tsup.packages.ts) plus `@webbridge/contract/testing`, the builders of
 * the contract's shapes that every package's tests share (src/testing/index.ts).
 */
export default defineConfig({
  ...publishedPackage,
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' },
  dts: { entry: { index: '.tsbuild/src/index.d.ts', testing: '.tsbuild/src/testing/index.d.ts' } },
});
