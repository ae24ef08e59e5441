import QRCode from 'qrcode';

/** The page a browser opens: the URL with the access code in the fragment (never sent to a server). */
export function connectUrl(url: string, code: string): string {
  return `${url}/#code=${encodeURIComponent(code)}`;
}

/** A QR code of `text` drawn with block characters for a terminal. */
export function terminalQr(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'terminal', small: true });
}

/** Whether a URL points at this machine only (useless on a phone). */
function isLoopback(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || hostname.startsWith('127.') || hostname === '[::1]';
}

/**
 * What the person at the host reads to connect a browser: every URL the bridge listens on and
 * a QR code per address a phone can reach (each LAN address when listening on 0.0.0.0), each
 * opening the page with the access code in the URL fragment. With loopback only, the loopback
 * URL gets the QR code (a browser on the same machine can still use it).
 */
export async function connectionBanner(urls: readonly string[], code: string): Promise<string> {
  const reachable = urls.filter((url) => !isLoopback(url));
  const scannable = reachable.length > 0 ? reachable : urls.slice(0, 1);
  const parts: string[] = [];
  for (const url of scannable) {
    parts.push(`Scan to open ${url} (the code is in the link):\n${await terminalQr(connectUrl(url, code))}`);
  }
  return parts.join('\n');
}
