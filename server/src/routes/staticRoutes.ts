import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { BridgeEnv } from '../env';

/**
 * The page's Content-Security-Policy: only this origin's scripts, styles, images and API;
 * no inline script, no third-party origin, no framing.
 */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the built web client at `/`, with the page's security headers (nosniff and
 * X-Frame-Options come from adapters/hardenResponse.ts, like every answer's).
 */
export function staticRoutes(app: Hono<BridgeEnv>, root: string): void {
  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', PAGE_CSP);
    c.res.headers.set('Referrer-Policy', 'no-referrer');
  });
  app.get('*', serveStatic({ root }));
  // Any other page path is the single-page app itself.
  app.get('*', serveStatic({ root, path: 'index.html' }));
}
