import { MAX_DEVICE_NAME } from '@webbridge/contract';

/** Browsers by a token of their user agent, most specific first (Edge and Opera say "Chrome" too). */
const BROWSERS: readonly [RegExp, string][] = [
  [/EdgA?\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

/** Systems by a token of their user agent, most specific first (Android says "Linux" too). */
const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/**
 * What a browser calls itself when it pairs, before the person edits it: "Chrome on Android",
 * "Safari on iPhone". Read from the user agent, which is all a page knows without asking.
 *
 * @example defaultDeviceName(navigator.userAgent) // 'Firefox on Windows'
 */
export function defaultDeviceName(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Browser';
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return (system === undefined ? browser : `${browser} on ${system}`).slice(0, MAX_DEVICE_NAME);
}
