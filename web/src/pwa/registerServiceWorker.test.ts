import { describe, expect, it } from 'vitest';
import { registerServiceWorker, type WorkerEnvironment } from './registerServiceWorker';

function environment(secure: boolean, withWorkers = true, readyState = 'loading') {
  const registered: string[] = [];
  const onLoad: (() => void)[] = [];
  const env: WorkerEnvironment = {
    isSecureContext: secure,
    navigator: withWorkers
      ? { serviceWorker: { register: async (url: string) => void registered.push(url) } }
      : {},
    document: { readyState },
    addEventListener: (_type, listener) => void onLoad.push(listener),
  };
  return {
    env,
    registered,
    load: () => {
      for (const listener of onLoad) listener();
    },
  };
}

describe('registerServiceWorker', () => {
  it('registers sw.js beside the page (under a base path too) after load in a secure context', () => {
    const { env, registered, load } = environment(true);
    expect(registerServiceWorker(env, true)).toBe(true);
    expect(registered).toEqual([]);
    load();
    expect(registered).toEqual(['sw.js']);
  });

  it('registers at once when the page has already loaded', () => {
    const { env, registered } = environment(true, true, 'complete');
    registerServiceWorker(env, true);
    expect(registered).toEqual(['sw.js']);
  });

  it('does nothing over plain HTTP on a network, without service workers, or in development', () => {
    for (const [secure, workers, production] of [
      [false, true, true],
      [true, false, true],
      [true, true, false],
    ] as const) {
      const { env, registered, load } = environment(secure, workers);
      expect(registerServiceWorker(env, production)).toBe(false);
      load();
      expect(registered).toEqual([]);
    }
  });
});
