/**
 * The localStorage key of this browser's device credential. localStorage, not sessionStorage:
 * a paired phone must reconnect after the tab is closed, the browser restarts or the installed
 * app is opened from the home screen or a notification (each a new session). It holds a
 * credential the host can forget at any time, never the access code (docs/SECURITY.md).
 */
export const DEVICE_KEY = 'webbridge.device';

/** Where pages before pairing kept the code for their tab: removed wherever it is found. */
const LEGACY_CODE_KEY = 'webbridge.code';

/** What this browser keeps of its pairing. */
export interface KeptDevice {
  readonly credential: string;
  readonly deviceId: string;
}

/** A secret a link carried in its fragment. */
export type LinkSecret =
  /** A one-time pairing token (the host's QR code and printed link). */
  | { readonly kind: 'pair'; readonly token: string }
  /** An access or view code (older links, and the test harness): paired at once, never kept. */
  | { readonly kind: 'code'; readonly code: string };

/** Where the page looks for its secrets and keeps them; the page passes `window`. */
export interface CodeEnvironment {
  readonly location: { readonly hash: string; readonly pathname: string; readonly search: string };
  readonly history: { replaceState(data: unknown, unused: string, url?: string): void };
  readonly localStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  readonly sessionStorage: Pick<Storage, 'removeItem'>;
}

/**
 * Takes a pairing token (`#pair=…`) or a code (`#code=…`) from the URL fragment and removes the
 * fragment from the address bar at once (`history.replaceState`), so the current history entry,
 * bookmarks and screenshots keep no secret. The browser may already have written the URL it
 * opened to its history: for a pairing link that is a token spent a moment later. Called once
 * per page load, it also drops a code an older version of the page left in sessionStorage.
 *
 * @example
 * ```ts
 * takeLinkSecret(window); // { kind: 'pair', token: 'Qm9…' } after opening http://host/#pair=Qm9…
 * ```
 */
export function takeLinkSecret(env: CodeEnvironment): LinkSecret | null {
  try {
    env.sessionStorage.removeItem(LEGACY_CODE_KEY);
  } catch {
    // Storage disabled: nothing was kept there either.
  }
  const match = /(?:^#|&)(pair|code)=([^&]*)/.exec(env.location.hash);
  if (!match) return null;
  env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}`);
  const value = safeDecode(match[2] ?? '').trim();
  if (value === '') return null;
  return match[1] === 'pair' ? { kind: 'pair', token: value } : { kind: 'code', code: value };
}

/** The device credential this browser keeps, if any (a damaged entry counts as none). */
export function keptDevice(env: Pick<CodeEnvironment, 'localStorage'>): KeptDevice | null {
  try {
    const value = JSON.parse(env.localStorage.getItem(DEVICE_KEY) ?? 'null') as Partial<KeptDevice> | null;
    if (typeof value?.credential === 'string' && typeof value.deviceId === 'string') {
      return { credential: value.credential, deviceId: value.deviceId };
    }
  } catch {
    // Unreadable JSON, or storage disabled: not paired.
  }
  return null;
}

/** Keeps the device credential in this browser (see {@link DEVICE_KEY}). */
export function keepDevice(env: Pick<CodeEnvironment, 'localStorage'>, device: KeptDevice): void {
  try {
    env.localStorage.setItem(DEVICE_KEY, JSON.stringify(device));
  } catch {
    // Storage can be disabled (private mode): the page stays connected until it is closed.
  }
}

/**
 * Forgets every secret the page kept: the device credential and a code an older page left in
 * sessionStorage (the person disconnected, or the host no longer accepts them).
 */
export function forgetSecrets(env: Pick<CodeEnvironment, 'localStorage' | 'sessionStorage'>): void {
  try {
    env.localStorage.removeItem(DEVICE_KEY);
    env.sessionStorage.removeItem(LEGACY_CODE_KEY);
  } catch {
    // See keepDevice.
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
