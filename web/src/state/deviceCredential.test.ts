import { describe, expect, it } from 'vitest';
import {
  type CodeEnvironment,
  DEVICE_KEY,
  forgetSecrets,
  keepDevice,
  keptDevice,
  takeLinkSecret,
} from './deviceCredential';

function environment(hash: string, stored: Record<string, string> = {}) {
  const local = new Map<string, string>(Object.entries(stored));
  const session = new Map<string, string>([['webbridge.code', 'old-code']]);
  const replaced: string[] = [];
  const env: CodeEnvironment = {
    location: { hash, pathname: '/chat', search: '?x=1' },
    history: { replaceState: (_data, _unused, url) => replaced.push(url ?? '') },
    localStorage: {
      getItem: (key) => local.get(key) ?? null,
      setItem: (key, value) => void local.set(key, value),
      removeItem: (key) => void local.delete(key),
    },
    sessionStorage: { removeItem: (key) => void session.delete(key) },
  };
  return { env, local, session, replaced };
}

describe('takeLinkSecret', () => {
  it('takes a pairing token from the fragment and removes it from the address bar, keeping nothing', () => {
    const { env, local, session, replaced } = environment('#pair=Qm9-x_1');
    expect(takeLinkSecret(env)).toEqual({ kind: 'pair', token: 'Qm9-x_1' });
    expect(replaced).toEqual(['/chat?x=1']);
    expect(local.size).toBe(0);
    // A code an older page kept for its tab is dropped on the first load.
    expect(session.size).toBe(0);
  });

  it('takes a code from the fragment, decoded, among other parameters', () => {
    const { env, replaced } = environment('#lang=fr&code=ab%20cd-12');
    expect(takeLinkSecret(env)).toEqual({ kind: 'code', code: 'ab cd-12' });
    expect(replaced).toHaveLength(1);
  });

  it('leaves an address without a secret alone, and removes an empty one', () => {
    const none = environment('#lang=fr');
    expect(takeLinkSecret(none.env)).toBeNull();
    expect(none.replaced).toEqual([]);
    const empty = environment('#pair=');
    expect(takeLinkSecret(empty.env)).toBeNull();
    expect(empty.replaced).toHaveLength(1);
  });
});

describe('the kept device', () => {
  it('is kept in localStorage, read back, and forgotten with every other secret', () => {
    const { env, local, session } = environment('');
    expect(keptDevice(env)).toBeNull();
    keepDevice(env, { credential: 'id.secret', deviceId: 'id' });
    expect(JSON.parse(local.get(DEVICE_KEY) ?? '')).toEqual({ credential: 'id.secret', deviceId: 'id' });
    expect(keptDevice(env)).toEqual({ credential: 'id.secret', deviceId: 'id' });
    forgetSecrets(env);
    expect(keptDevice(env)).toBeNull();
    expect(local.size).toBe(0);
    expect(session.size).toBe(0);
  });

  it('treats a damaged entry as not paired', () => {
    expect(keptDevice(environment('', { [DEVICE_KEY]: '{not json' }).env)).toBeNull();
    expect(keptDevice(environment('', { [DEVICE_KEY]: '{"credential":1}' }).env)).toBeNull();
  });
});
