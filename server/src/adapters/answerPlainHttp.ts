import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  PROBLEM_CONTENT_TYPE,
  PROTOCOL_HEADER,
  PROTOCOL_VERSION,
  ProtocolError,
  problemBody,
} from '@webbridge/contract';
import { hostnameOf } from '../guards/hostGuard';

/** What the plain-HTTP answerer of a TLS port needs to know. */
export interface PlainHttpContext {
  readonly allowedHosts: () => ReadonlySet<string>;
  /** The local authority's certificate (PEM) and fingerprint, when it serves one. */
  readonly authority: () => { readonly certificatePem: string; readonly fingerprint: string } | undefined;
}

/**
 * A Host header the help page may build a link from: a name or bracketed IPv6 address and at
 * most a numeric port. `127.0.0.1:@evil.example` has an allowed host name before its last
 * colon, but as a URL authority it means the host evil.example (with `127.0.0.1:` as userinfo),
 * and the page appends the URL fragment, where the access code travels.
 */
const LINKABLE_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

/** The media type phones and desktop systems offer to install as a certificate authority. */
export const CA_CONTENT_TYPE = 'application/x-x509-ca-cert';

/**
 * Answers a plain-HTTP request that reached the TLS port, then closes the connection.
 * `/ca.crt` is served (public: a device needs it before it can trust the https address, and
 * the person checks its fingerprint against the host's screen); the API says `https_required`
 * as problem+json; any page gets a short help page linking to the https address (keeping the
 * URL fragment, where the access code travels) and to the authority.
 */
export function answerPlainHttp(context: PlainHttpContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    res.shouldKeepAlive = false;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const host = req.headers.host;
    const known =
      host !== undefined && LINKABLE_HOST.test(host) && context.allowedHosts().has(hostnameOf(host));
    const authority = context.authority();
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && path === '/ca.crt' && authority) {
      send(res, req, 200, CA_CONTENT_TYPE, authority.certificatePem, {
        'Content-Disposition': 'attachment; filename="webbridge-ca.crt"',
      });
      return;
    }
    const secure = known ? `https://${host}${req.url?.startsWith('/') ? req.url : '/'}` : undefined;
    if (path.startsWith('/api/') || !read) {
      const problem = problemBody(
        new ProtocolError(
          'https_required',
          secure ? `This port speaks HTTPS: use ${secure}` : 'This port speaks HTTPS.',
        ),
      );
      send(res, req, problem.status, PROBLEM_CONTENT_TYPE, JSON.stringify(problem), {
        [PROTOCOL_HEADER]: String(PROTOCOL_VERSION),
      });
      return;
    }
    send(res, req, 400, 'text/html; charset=utf-8', helpPage(secure, known ? host : undefined, authority));
  };
}

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    // nosniff and X-Frame-Options come from adapters/hardenResponse.ts, like every answer's.
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'",
    Connection: 'close',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function helpPage(
  secure: string | undefined,
  host: string | undefined,
  authority: { readonly fingerprint: string } | undefined,
): string {
  const html = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const go = secure
    ? `<p><a id="go" href="${html(secure)}">Open ${html(secure)}</a></p>
<script>var a=document.getElementById('go');a.href+=location.hash;</script>`
    : '<p>Open this address with <code>https://</code> instead of <code>http://</code>.</p>';
  const trust =
    authority && host
      ? `<p>The first time on this device, install the host's certificate authority:
<a href="/ca.crt">http://${html(host)}/ca.crt</a>, and check that its SHA-256 fingerprint is the one the
host shows:</p><p><code>${html(authority.fingerprint)}</code></p>`
      : '';
  return `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>webbridge speaks HTTPS</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36em;margin:2em auto;padding:0 1em}code{word-break:break-all}</style>
<h1>This address speaks HTTPS</h1>
<p>webbridge encrypts everything it sends over the network, so this page is not served over plain HTTP.</p>
${go}
${trust}`;
}
