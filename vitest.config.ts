import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const src = (pkg: string) => fileURLToPath(new URL(`./${pkg}/src/index.ts`, import.meta.url));

/** The extra engines to run the cross-engine suite on, e.g. `WEBBRIDGE_ENGINES=webkit,firefox`. */
// biome-ignore lint/suspicious/noUndeclaredEnvVars: vitest reads it, and vitest runs outside turbo
const extraEngines = (process.env.WEBBRIDGE_ENGINES ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is 'webkit' | 'firefox' => name === 'webkit' || name === 'firefox');

/** Tests that drive Debian's Chromium (playwright-core). */
const browserTests = [
  'tests/browser/**/*.test.ts',
  'tests/sdk/sdkBrowser.test.ts',
  'tests/examples/**/*.test.ts',
];

export default defineConfig({
  // Always the repository root, whichever folder vitest is started from (started in server/,
  // it once took that folder as root, found no tests and wrote server/tests/.artifacts/).
  root,
  resolve: {
    // Tests run against the sources, so a change is tested without a rebuild.
    alias: {
      // Before the package's own name, which would otherwise take this path as one of its files.
      '@webbridge/contract/testing': fileURLToPath(
        new URL('./contract/src/testing/index.ts', import.meta.url),
      ),
      '@webbridge/contract': src('contract'),
      '@webbridge/server': src('server'),
      '@webbridge/client-sdk': src('client-sdk'),
      '@webbridge/host': src('host'),
    },
  },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**', '**/.tsbuild/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // One temporary folder per run, removed at its end (TMPDIR for the workers and their children).
    globalSetup: ['tests/support/tempRoot.globalSetup.ts'],
    // Each runs alone with `vitest run --project <name>`.
    projects: [
      {
        extends: true,
        // Each package's own tests, next to its sources (web's in happy-dom).
        test: { name: 'unit', include: ['{contract,server,client-sdk,host,web}/src/**/*.test.ts'] },
      },
      {
        extends: true,
        // Whole processes over real sockets: HTTP, SDK, host, contract, model, properties, fuzz...
        test: {
          name: 'http',
          include: ['tests/**/*.test.ts'],
          exclude: [...browserTests, '**/node_modules/**'],
          // Stops the run at once, naming the install command, when nginx or Caddy is missing.
          globalSetup: ['tests/support/systemPackages.globalSetup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browserTests,
          // In CI, a browser test that fails runs once more, and .ci/run's summary names every
          // test that passed only then, with its first failure: each such race found so far
          // was a real one in the page or the test, to be fixed, not retried for ever. A test
          // that fails twice fails the run. Never retried on a developer's machine.
          retry: process.env.CI ? 1 : 0,
          // Stops the run at once, naming the install command, when Chromium is missing.
          globalSetup: ['tests/support/systemPackages.globalSetup.ts'],
        },
      },
      // The cross-engine suite again in each engine named by WEBBRIDGE_ENGINES (.ci/run sets it
      // for one Node version): after every other project, one engine after the other and one
      // file at a time, since each file starts a whole browser (WebKit on a virtual display).
      ...extraEngines.map((engine, index) => ({
        extends: true,
        test: {
          name: engine,
          include: ['tests/browser/engines/**/*.test.ts'],
          env: { WEBBRIDGE_ENGINE: engine },
          retry: process.env.CI ? 1 : 0,
          globalSetup: ['tests/support/systemPackages.globalSetup.ts'],
          sequence: { groupOrder: 1 + index },
          maxWorkers: 1,
        },
      })),
    ],
    // The JSON report lets .ci/run print a one-line summary (tests/.artifacts is git-ignored).
    reporters: ['default', ['json', { outputFile: `${root}tests/.artifacts/vitest.json` }]],
  },
});
