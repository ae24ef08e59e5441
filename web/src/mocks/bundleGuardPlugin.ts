import type { Plugin } from 'vite';
import { MOCK_MODE } from './mockModePlugin';

/** Where the modules the shipped page must never carry live: the bridge, the mocks, MSW. */
const FORBIDDEN: readonly RegExp[] = [/\/server\/src\//, /\/web\/src\/mocks\//, /\/node_modules\/.*\/msw\//];

/** The modules of a build that the shipped page must not carry, with the rule each breaks. */
export function forbiddenModules(moduleIds: Iterable<string>): string[] {
  const found: string[] = [];
  for (const id of moduleIds) {
    const path = id.replace(/\\/g, '/');
    if (FORBIDDEN.some((rule) => rule.test(path)) || path.startsWith('node:')) found.push(id);
  }
  return found;
}

/**
 * Fails any build but the mock mode's if one of its chunks holds a module of the bridge
 * (server/src), of the mocks (web/src/mocks) or of MSW, or a Node built-in: what Rollup put in
 * the bundle, not a guess from its strings. The page reaches the mocks only through the mock
 * mode's entry (mockModePlugin.ts), so a production graph that reaches them is a mistake.
 */
export function bundleGuardPlugin(): Plugin {
  let mode = '';
  return {
    name: 'webbridge-bundle-guard',
    apply: 'build',
    configResolved(config) {
      mode = config.mode;
    },
    generateBundle(_options, bundle) {
      if (mode === MOCK_MODE) return;
      const ids = Object.values(bundle).flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds : []));
      const found = forbiddenModules(ids);
      if (found.length > 0) this.error(`the page's build holds mock or server code:\n${found.join('\n')}`);
    },
  };
}
