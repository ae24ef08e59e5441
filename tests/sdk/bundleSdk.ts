import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The part of esbuild's API used here (esbuild is not a direct dependency of tests/). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ outputFiles: { text: string }[] }>;
}

const source = (pkg: string) => fileURLToPath(new URL(`../../${pkg}/src/index.ts`, import.meta.url));

/**
 * Bundles the SDK's sources for the browser as one IIFE that sets `globalThis[globalName]`.
 * esbuild is reached through tsup, which depends on it: tests/package.json does not list it.
 */
export async function bundleSdk(globalName: string): Promise<string> {
  const require = createRequire(import.meta.url);
  const esbuild = createRequire(require.resolve('tsup'))('esbuild') as Esbuild;
  const result = await esbuild.build({
    entryPoints: [source('client-sdk')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName,
    platform: 'browser',
    target: 'es2022',
    // The sources, as vitest runs them: the browser test sees the code under review, not a build.
    alias: { '@webbridge/contract': source('contract') },
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (file === undefined) throw new Error('esbuild produced no bundle');
  return file.text;
}
