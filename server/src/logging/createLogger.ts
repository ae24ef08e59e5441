import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * The bridge's logger. Log lines carry routes, statuses and durations only: never an access
 * code, a media id, a query string or a file path from a request. Lines go to stderr unless
 * a destination is given. `redact` is a second line
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
  // stderr by default: stdout belongs to the host's own output (the CLI's first line is the URL).
  return pino(options, destination ?? pino.destination(2));
}
