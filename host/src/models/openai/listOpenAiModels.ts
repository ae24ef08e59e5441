import { ModelError } from '../ModelError';
import { httpFailure, networkFailure } from './describeFailure';

/**
 * Discovers the models of an OpenAI-compatible endpoint with `GET {baseUrl}/models` (OpenAI's
 * `{ object: "list", data: [{ id, … }] }`). Returns the ids in the endpoint's order. Throws a
 * {@link ModelError} with a readable reason when the endpoint cannot be asked.
 */
export async function listOpenAiModels(
  baseUrl: string,
  apiKey: string | undefined,
  timeoutMs = 10_000,
): Promise<string[]> {
  const root = baseUrl.replace(/\/+$/, '');
  const origin = new URL(root).origin;
  let response: Response;
  try {
    response = await fetch(`${root}/models`, {
      headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw networkFailure(error, origin, timedOut ? timeoutMs : undefined);
  }
  if (!response.ok) throw await httpFailure(response, apiKey);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ModelError('The model list of the endpoint is not JSON.');
  }
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw new ModelError('The model list of the endpoint has no `data` array.');
  const ids = data
    .map((entry: unknown) =>
      typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined,
    )
    .filter((id): id is string => typeof id === 'string' && id !== '');
  return [...new Set(ids)];
}
