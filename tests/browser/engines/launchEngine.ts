import { launchChromiumEngine } from './chromiumEngine';
import type { EngineBrowser, EngineName } from './EnginePage';
import { launchFirefoxEngine } from './firefoxEngine';
import { launchWebKitEngine } from './webkitEngine';

/**
 * The engine this test process drives: the vitest project sets `WEBBRIDGE_ENGINE` (vitest.config.ts);
 * the `browser` project, which leaves it unset, runs the cross-engine suite on Chromium.
 */
export const engine: EngineName = (() => {
  const named = process.env.WEBBRIDGE_ENGINE ?? 'chromium';
  if (named === 'chromium' || named === 'webkit' || named === 'firefox') return named;
  throw new Error(`WEBBRIDGE_ENGINE must be chromium, webkit or firefox, not "${named}"`);
})();

/** Starts {@link engine}. */
export function launchEngine(): Promise<EngineBrowser> {
  return launchEngineNamed(engine);
}

/** Starts the engine `name` (a benchmark that measures several in one process). */
export function launchEngineNamed(name: EngineName): Promise<EngineBrowser> {
  switch (name) {
    case 'chromium':
      return launchChromiumEngine();
    case 'webkit':
      return launchWebKitEngine();
    case 'firefox':
      return launchFirefoxEngine();
    default: {
      const unknown: never = name;
      throw new Error(`no such engine: ${String(unknown)}`);
    }
  }
}
