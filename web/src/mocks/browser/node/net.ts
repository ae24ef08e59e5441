// `node:net` for the bridge when it runs in the page (`vite --mode mock` aliases it here): the
// address checks of the guards (throttle keys, Host names), with Node's answers.

const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** `net.isIPv4`. */
export const isIPv4 = (text: string): boolean => V4.test(text);

/** `net.isIPv6`: what the URL parser takes between brackets (zone ids aside, as the page has none). */
export function isIPv6(text: string): boolean {
  if (!text.includes(':') || /[[\]/?#@%\s]/.test(text)) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

/** `net.isIP`: 4, 6 or 0. */
export const isIP = (text: string): number => (isIPv4(text) ? 4 : isIPv6(text) ? 6 : 0);
