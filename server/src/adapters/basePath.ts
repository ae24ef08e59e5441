import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The app mounted under `base` (`/webbridge`) as well as at the root: a request for
 * `/webbridge/api/state` is served as `/api/state` (a proxy that passes the mount point on);
 * one for `/api/state` as it is (a proxy that strips it, and loopback). The bare base path is
 * redirected to its folder (`/webbridge` → `/webbridge/`), where the page's relative URLs
 * resolve under it. Returns true when it answered (the redirect).
 */
export function mountUnder(req: IncomingMessage, res: ServerResponse, base: string): boolean {
  const url = req.url ?? '';
  if (!url.startsWith(base)) return false;
  const rest = url.slice(base.length);
  if (rest === '' || rest.startsWith('?')) {
    // 308 keeps the method: a HEAD stays a HEAD.
    res.writeHead(308, { Location: `${base}/${rest}`, 'Content-Length': '0', 'Cache-Control': 'no-store' });
    res.end();
    return true;
  }
  if (rest.startsWith('/')) req.url = rest;
  return false;
}
