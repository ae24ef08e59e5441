import { type Action, problemSchema, type Snapshot, snapshotSchema } from '@webbridge/contract';
import type { TestHost } from './testHost';

/** What the API helpers need of a host: its URL and auth headers. */
type Reachable = Pick<TestHost, 'url' | 'auth'>;

/** GET /api/state, validated against the contract. */
export async function getState(h: Reachable): Promise<Snapshot> {
  const response = await fetch(`${h.url}/api/state`, { headers: h.auth() });
  if (response.status !== 200) throw new Error(`GET /api/state: ${response.status} ${await response.text()}`);
  return snapshotSchema.parse(await response.json());
}

/** POST /api/action with the access code; returns the raw response. */
export function postAction(h: Reachable, action: Action | Record<string, unknown>): Promise<Response> {
  return fetch(`${h.url}/api/action`, { method: 'POST', headers: h.auth(), body: JSON.stringify(action) });
}

/** POST an action that must succeed; returns its `result`. */
export async function act(h: Reachable, action: Action): Promise<Record<string, unknown>> {
  const response = await postAction(h, action);
  const body = (await response.json()) as { result?: Record<string, unknown> };
  if (response.status !== 200)
    throw new Error(`${action.action}: ${response.status} ${JSON.stringify(body)}`);
  return body.result ?? {};
}

/** Reads a problem+json body and checks it against the contract. */
export async function problemOf(response: Response) {
  expectProblemType(response);
  return problemSchema.parse(await response.json());
}

function expectProblemType(response: Response): void {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/problem+json'))
    throw new Error(`not a problem: ${response.status} ${type}`);
}

/** The identity fields a session-sensitive action carries, from a snapshot. */
export function guardOf(s: Snapshot) {
  return {
    sessionRevision: s.sessionRevision,
    conversationId: s.conversationId,
    projectId: s.projectId,
    instanceId: s.instanceId,
  };
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Sends a message in the current conversation and waits until its echo reply completes. */
export async function sendAndWait(h: Reachable, text: string): Promise<Snapshot> {
  const state = await getState(h);
  await act(h, { action: 'send', text, ...guardOf(state) });
  return waitFor(async () => {
    const now = await getState(h);
    const last = now.conversations.messages.at(-1);
    return last?.role === 'assistant' && last.status === 'complete' && now.conversations.run.state === 'idle'
      ? now
      : undefined;
  });
}
