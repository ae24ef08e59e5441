/**
 * A tool call that cannot be carried out (bad arguments, a path outside the workspace, a
 * missing file). Its message is shown to the user and the model, so it names no host paths.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
