/** An error's name and message only, for logs: stack traces and causes can carry paths. */
export function describeError(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'unknown', message: '' };
}
