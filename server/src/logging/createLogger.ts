import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * The bridge's logger. Log lines carry routes, statuses and durations only: never an access
 * code, a media id, a query string or a file path from a request. `redact` is a second line
 * of defence should a header object ever reach a log call.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    name: 'webbridge',
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'accessCode', 'mediaId', 'path', 'url'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
