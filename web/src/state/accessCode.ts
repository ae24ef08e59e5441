/** The sessionStorage key the access code is kept under, for this tab only. */
export const CODE_KEY = 'webbridge.code';

/** Where the code is looked for and kept; the page passes `window`. */
export interface CodeEnvironment {
  readonly location: { readonly hash: string; readonly pathname: string; readonly search: string };
  readonly history: { replaceState(data: unknown, unused: string, url?: string): void };
  readonly sessionStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/**
 * Takes the access code from the URL fragment (`#code=…`, as a QR code carries it) and removes
 * it from the address bar at once, so it is not left in history, bookmarks or screenshots.
 * Otherwise returns the code kept for this tab, if any. The fragment never reaches the server.
 *
 * @example
 * ```ts
 * const code = takeAccessCode(window); // 'k7q2-9fx3' after opening http://host/#code=k7q2-9fx3
 * ```
 */
export function takeAccessCode(env: CodeEnvironment): string | null {
  const match = /(?:^#|&)code=([^&]*)/.exec(env.location.hash);
  if (match) {
    env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}`);
    const code = safeDecode(match[1] ?? '').trim();
    if (code !== '') {
      saveAccessCode(env, code);
      return code;
    }
  }
  return readStorage(env);
}

/** Keeps the code for this tab (sessionStorage: gone when the tab closes). */
export function saveAccessCode(env: Pick<CodeEnvironment, 'sessionStorage'>, code: string): void {
  try {
    env.sessionStorage.setItem(CODE_KEY, code);
  } catch {
    // Storage can be disabled (private mode); the code then lives only in memory.
  }
}

/** Forgets the code (wrong, rotated, or the user disconnected). */
export function forgetAccessCode(env: Pick<CodeEnvironment, 'sessionStorage'>): void {
  try {
    env.sessionStorage.removeItem(CODE_KEY);
  } catch {
    // See saveAccessCode.
  }
}

function readStorage(env: Pick<CodeEnvironment, 'sessionStorage'>): string | null {
  try {
    return env.sessionStorage.getItem(CODE_KEY);
  } catch {
    return null;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
