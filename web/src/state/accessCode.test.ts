import { describe, expect, it } from 'vitest';
import { CODE_KEY, type CodeEnvironment, forgetAccessCode, takeAccessCode } from './accessCode';

function environment(hash: string, stored: string | null = null) {
  const storage = new Map<string, string>(stored === null ? [] : [[CODE_KEY, stored]]);
  const replaced: string[] = [];
  const env: CodeEnvironment = {
    location: { hash, pathname: '/chat', search: '?x=1' },
    history: { replaceState: (_data, _unused, url) => replaced.push(url ?? '') },
    sessionStorage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
  };
  return { env, storage, replaced };
}

describe('takeAccessCode', () => {
  it('takes the code from the fragment, keeps it for the tab and removes it from the address bar', () => {
    const { env, storage, replaced } = environment('#code=ab%20cd-12');
    expect(takeAccessCode(env)).toBe('ab cd-12');
    expect(storage.get(CODE_KEY)).toBe('ab cd-12');
    expect(replaced).toEqual(['/chat?x=1']);
  });

  it('finds the code among other fragment parameters', () => {
    const { env } = environment('#lang=fr&code=xyz');
    expect(takeAccessCode(env)).toBe('xyz');
  });

  it('falls back to the code kept for the tab, and leaves the address bar alone', () => {
    const { env, replaced } = environment('', 'kept-code');
    expect(takeAccessCode(env)).toBe('kept-code');
    expect(replaced).toEqual([]);
  });

  it('prefers a new code in the fragment over the kept one', () => {
    const { env, storage } = environment('#code=new', 'old');
    expect(takeAccessCode(env)).toBe('new');
    expect(storage.get(CODE_KEY)).toBe('new');
  });

  it('removes an empty code from the address bar without keeping it', () => {
    const { env, storage, replaced } = environment('#code=');
    expect(takeAccessCode(env)).toBeNull();
    expect(storage.size).toBe(0);
    expect(replaced).toHaveLength(1);
  });

  it('forgets the code', () => {
    const { env, storage } = environment('', 'kept');
    forgetAccessCode(env);
    expect(storage.size).toBe(0);
    expect(takeAccessCode(env)).toBeNull();
  });
});
