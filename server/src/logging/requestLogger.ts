import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';

/**
 * Logs each request by route pattern (never the URL: a media URL carries its id), method,
 * status and duration.
 */
export function requestLogger(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const matched = routePath(c);
    const route = matched && matched !== '*' && matched !== '/*' ? matched : 'unmatched';
    logger.info(
      { method: c.req.method, route, status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  };
}
