import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources, so a change is tested without a rebuild.
    alias: {
      '@webbridge/contract': src('contract'),
      '@webbridge/server': src('server'),
      '@webbridge/client-sdk': src('client-sdk'),
      '@webbridge/host': src('host'),
    },
  },
  test: {
    include: [
      'contract/src/**/*.test.ts',
      'server/src/**/*.test.ts',
      'client-sdk/src/**/*.test.ts',
      'host/src/**/*.test.ts',
      'web/src/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // The JSON report lets .ci/run print a one-line summary (tests/.artifacts is git-ignored).
    reporters: ['default', ['json', { outputFile: 'tests/.artifacts/vitest.json' }]],
  },
});
