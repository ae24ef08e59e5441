import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * What every answer carries, whoever writes it: no content sniffing (a JSON or text answer is
 * never run as script or style), and no framing by another page (clickjacking; an API answer
 * inside a cross-origin frame). An answer with its own Content-Security-Policy (the page, media,
 * the plain-HTTP help page) replaces this one and says `frame-ancestors 'none'` itself;
 * X-Frame-Options covers browsers that ignore the directive.
 */
const HARDENING: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
};

/**
 * HSTS for an HTTPS answer on a name: a browser that reached `https://box.local:7878` goes
 * there again over HTTPS even when a link says `http://`. Short, because a host can be
 * restarted with its own certificate elsewhere or plain HTTP on loopback, and HSTS binds a
 * name on every port; no `includeSubDomains` (the host does not own the names below its own).
 */
const HSTS = 'max-age=86400';

/**
 * Sets the hardening headers on Node's response before anyone answers on it: Hono's adapter,
 * the action lane and the event stream all finish with `writeHead(status, headers)`, which
 * merges these in (their own headers win where both set one). Called once per request by the
 * listener (guards/nodeFraming.ts) and the plain-HTTP answerer of a TLS port.
 */
export function hardenResponse(req: IncomingMessage, res: ServerResponse): void {
  for (const name in HARDENING) res.setHeader(name, HARDENING[name] as string);
  if ((req.socket as Partial<TLSSocket>).encrypted === true && isName(req.headers.host)) {
    res.setHeader('Strict-Transport-Security', HSTS);
  }
}

/** The same headers as raw header lines, for answers written straight to a socket. */
export const HARDENING_LINES = Object.entries(HARDENING)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/**
 * Whether a Host header names the host by a DNS name (HSTS is meaningless for an IP address,
 * and browsers ignore it there) other than `localhost`, which the same browser also reaches
 * over plain HTTP when the host serves loopback without TLS.
 */
function isName(host: string | undefined): boolean {
  if (host === undefined || host.startsWith('[')) return false;
  const name = host.replace(/:\d*$/, '').toLowerCase();
  return name !== '' && isIP(name) === 0 && name !== 'localhost' && !name.endsWith('.localhost');
}
