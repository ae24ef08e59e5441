/**
 * A model failure with a reason a person can read: the endpoint refused (HTTP status and its
 * message), could not be reached, timed out, or sent a stream that is not OpenAI's format.
 * The controller shows its message on the reply (status `error`); other errors are shown as a
 * generic reason because their text may carry internals. Messages never contain the API key.
 */
export class ModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelError';
  }
}
