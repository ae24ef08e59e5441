import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';

/** One request's log line: its route pattern, never its URL (a media URL carries its id). */
export interface RequestLine {
  readonly method: string;
  readonly route: string;
  readonly status: number;
  /** `performance.now()` when the request arrived. */
  readonly started: number;
}

/** Logs one request by route pattern, method, status and duration. */
export function logRequest(logger: Logger, { method, route, status, started }: RequestLine): void {
  logger.info({ method, route, status, ms: Math.round(performance.now() - started) }, 'request');
}

/** Logs each request that reaches Hono (see {@link logRequest}). */
export function requestLogger(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const matched = routePath(c);
    const route = matched && matched !== '*' && matched !== '/*' ? matched : 'unmatched';
    logRequest(logger, { method: c.req.method, route, status: c.res.status, started });
  };
}
