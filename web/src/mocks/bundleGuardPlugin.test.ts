import { describe, expect, it } from 'vitest';
import { forbiddenModules } from './bundleGuardPlugin';

describe('the bundle guard', () => {
  it('names every module of the bridge, the mocks, MSW or Node in a build, and nothing of the page', () => {
    const page = [
      '/repo/web/src/main.tsx',
      '/repo/client-sdk/src/client.ts',
      '/repo/contract/src/actions.ts',
      '/repo/node_modules/.pnpm/preact@10.29.0/node_modules/preact/dist/preact.mjs',
    ];
    const foreign = [
      '/repo/server/src/createBridgeCore.ts',
      '/repo/web/src/mocks/createMockBridge.ts',
      '/repo/node_modules/.pnpm/msw@2.15.0/node_modules/msw/lib/browser/index.mjs',
      'node:crypto',
      'C:\\repo\\web\\src\\mocks\\mockScenario.ts',
    ];
    expect(forbiddenModules([...page, ...foreign])).toEqual(foreign);
  });
});
