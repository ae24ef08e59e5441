/**
 * An error's name and message only, for logs: stack traces and causes can carry paths, and
 * file-system errors name theirs in the message (`ENOENT: …, open '/home/…'`), so anything
 * that looks like a path is replaced.
 */
export function describeError(error: unknown): { name: string; message: string } {
  if (!(error instanceof Error)) return { name: 'unknown', message: '' };
  return { name: error.name, message: error.message.replace(/(?:[A-Za-z]:)?[\\/][^\s'"]*/g, '<path>') };
}
