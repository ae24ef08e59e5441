import { type IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { forwardedOf } from '../guards/clientAddress';

/**
 * What every answer carries, whoever writes it: no content sniffing (a JSON or text answer is
 * never run as script or style), and no framing by another page (clickjacking; an API answer
 * inside a cross-origin frame). An answer with its own Content-Security-Policy (the page, media,
 * the plain-HTTP help page) keeps it and says `frame-ancestors 'none'` itself; X-Frame-Options
 * covers browsers that ignore the directive. Lower-case, as Hono's adapter writes its names.
 */
const HARDENING: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
};

/**
 * HSTS for an HTTPS answer on a name: a browser that reached `https://box.local:7878` goes
 * there again over HTTPS even when a link says `http://`. Short, because a host can be
 * restarted with its own certificate elsewhere or plain HTTP on loopback, and HSTS binds a
 * name on every port; no `includeSubDomains` (the host does not own the names below its own).
 */
const HSTS = 'max-age=86400';

/** Node's own `writeHead`, which the hardened one calls. */
const superWriteHead = ServerResponse.prototype.writeHead;

/** The arguments Node's `writeHead` takes after the status: a reason phrase and/or headers. */
type WriteHeadArgs = [] | [unknown] | [unknown, unknown];

/**
 * Node's response with the hardening headers added to every answer, whoever writes it: Hono's
 * adapter, the action lane, the event stream and the plain-HTTP answers of a TLS port all end
 * in `writeHead`, and an answer written with `end()` alone passes through it too. Given to
 * Node's servers as their `ServerResponse` (adapters/nodeListener.ts), so there is no step per
 * request to forget. Headers the answer sets itself win.
 *
 * Made the way Node makes its own (a constructor function over ServerResponse's prototype) and
 * adding to the header object the caller passes: the cheapest way measured, where `setHeader`
 * before `writeHead` sends Node's `writeHead` down its slow path (setting every passed header
 * one by one) and an ES `class … extends ServerResponse` costs more still
 * (tests/bench/hardeningHeaders.ts; figures in docs/PERFORMANCE.md).
 */
export const HardenedResponse: typeof ServerResponse = responseClass();

/** The response class: ServerResponse with {@link hardenedWriteHead}. */
function responseClass(): typeof ServerResponse {
  // Should Node ever make ServerResponse an ES class, it can no longer be called as a function.
  const Response: typeof ServerResponse = isClass(ServerResponse)
    ? (class extends ServerResponse {} as unknown as typeof ServerResponse)
    : legacyResponse();
  Response.prototype.writeHead = hardenedWriteHead as ServerResponse['writeHead'];
  return Response;
}

/** Node's `writeHead`, after the hardening headers were added to what it was given. */
function hardenedWriteHead(this: ServerResponse, statusCode: number, ...rest: WriteHeadArgs): ServerResponse {
  harden(this, rest);
  return (superWriteHead as (this: ServerResponse, ...args: unknown[]) => ServerResponse).call(
    this,
    statusCode,
    ...rest,
  );
}

/** Node's own way of extending ServerResponse: a constructor function and a prototype. */
function legacyResponse(): typeof ServerResponse {
  const base = ServerResponse as unknown as (this: ServerResponse, ...args: unknown[]) => void;
  function Response(this: ServerResponse, ...args: unknown[]): void {
    base.apply(this, args);
  }
  Object.setPrototypeOf(Response.prototype, ServerResponse.prototype);
  Object.setPrototypeOf(Response, ServerResponse);
  return Response as unknown as typeof ServerResponse;
}

/** Whether a constructor is an ES class (which cannot be called without `new`). */
function isClass(fn: unknown): boolean {
  return /^class\b/.test(Function.prototype.toString.call(fn));
}

/**
 * Adds the hardening headers to the header object among `writeHead`'s arguments, in place
 * (every caller here makes that object for this answer; a copy would cost more than the rest
 * of the header work), or with `setHeader` when there is none.
 */
function harden(res: ServerResponse, rest: WriteHeadArgs): void {
  const wanted = hardening(res.req);
  const last = rest.at(-1);
  if (typeof last === 'object' && last !== null && !Array.isArray(last)) {
    const headers = last as Record<string, unknown>;
    for (const name in wanted) if (!hasHeader(headers, name)) headers[name] = wanted[name];
    return;
  }
  for (const name in wanted) if (!res.hasHeader(name)) res.setHeader(name, wanted[name] as string);
}

/** Whether `headers` has `lowerName` under any case. */
function hasHeader(headers: Record<string, unknown>, lowerName: string): boolean {
  if (lowerName in headers) return true;
  for (const name in headers)
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) return true;
  return false;
}

/** The same headers as raw header lines, for answers written straight to a socket. */
export const HARDENING_LINES = Object.entries(HARDENING)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/**
 * The hardening headers of an answer to `req`: HSTS too over TLS on a name. Behind a trusted
 * proxy the client's scheme and name are the ones it forwarded (only a trusted proxy's count).
 */
function hardening(req: IncomingMessage | undefined): Readonly<Record<string, string>> {
  const forwarded = forwardedOf(req);
  const secure =
    forwarded?.scheme !== undefined
      ? forwarded.scheme === 'https'
      : (req?.socket as Partial<TLSSocket> | undefined)?.encrypted === true;
  return secure && isName(forwarded?.host ?? req?.headers.host)
    ? { ...HARDENING, 'strict-transport-security': HSTS }
    : HARDENING;
}

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
