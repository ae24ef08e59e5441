import QRCode from 'qrcode';

/**
 * The page a browser opens to pair: the URL with a one-time pairing token in the fragment
 * (never sent to a server in the URL; the page redeems it, then removes it). Never the access
 * code: a browser's history keeps the URLs it opened, and a spent token is worthless there.
 */
export function connectUrl(url: string, pairingToken: string): string {
  return `${url}/#pair=${encodeURIComponent(pairingToken)}`;
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
 * What the person at the host reads to pair a browser: a QR code per address a phone can reach
 * (each LAN address when listening on 0.0.0.0), each opening the page with one pairing token
 * (single use, 10 minutes) in the fragment, and the same link as text for copy and paste. With
 * loopback only, the loopback URL gets the QR code (a browser on the same machine can use it).
 * `what` names what the link pairs (a view link pairs a watching device).
 */
export async function connectionBanner(
  urls: readonly string[],
  pairingToken: string,
  what = 'pair a device',
): Promise<string> {
  const reachable = urls.filter((url) => !isLoopback(url));
  const scannable = reachable.length > 0 ? reachable : urls.slice(0, 1);
  const parts: string[] = [];
  for (const url of scannable) {
    const link = connectUrl(url, pairingToken);
    parts.push(
      `Scan to ${what} with ${url} (one-time link, valid 10 minutes; \`qr\` makes a new one):\n${await terminalQr(link)}\n  ${link}`,
    );
  }
  return parts.join('\n');
}

/** What the banner shows of the local certificate authority. */
export interface AuthorityFacts {
  readonly fingerprint: string;
  readonly downloadUrls: readonly string[];
  /** Set when an older authority (without name constraints) was replaced on this start. */
  readonly replaced?: { readonly previousFingerprint: string; readonly reason: 'unconstrained' };
}

/**
 * How a device trusts the host's certificate authority once: its SHA-256 fingerprint (to
 * compare on the device before trusting it) and a QR code of the plain-HTTP address it is
 * downloaded from (the first reachable address; loopback only when there is no other).
 */
export async function authorityBanner(authority: AuthorityFacts): Promise<string> {
  const reachable = authority.downloadUrls.filter((url) => !isLoopback(url));
  const url = reachable[0] ?? authority.downloadUrls[0];
  const lines = [
    'HTTPS certificate authority of this host (trust it once per device; see docs/HOST.md):',
    `  SHA-256 fingerprint: ${authority.fingerprint}`,
  ];
  if (authority.replaced) {
    lines.push(
      '  The fingerprint changed: the previous authority',
      `  (${authority.replaced.previousFingerprint})`,
      '  could vouch for any site, so it was replaced by one limited to local names and private',
      '  addresses. Trust the new one on each device and remove the old one (docs/HOST.md).',
    );
  }
  if (url !== undefined) {
    lines.push(`  download: ${url}`);
    lines.push(`Scan to install the authority on a phone:\n${await terminalQr(url)}`);
  }
  return lines.join('\n');
}
