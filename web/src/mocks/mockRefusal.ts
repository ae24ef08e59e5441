import { mockProblem } from './mockProblem';
import type { MockStore } from './mockStore';

/** Thrown by an action to answer with `response` instead of a result. */
export class MockRefusal extends Error {
  constructor(readonly response: Response) {
    super('refused');
  }
}

/** Refuses unless no reply is running. */
export function assertMockIdle(store: MockStore): void {
  if (store.state().conversations.run.state !== 'idle')
    throw new MockRefusal(mockProblem('not_applicable', 'A reply is still running.'));
}

/** The `session_mismatch` problem, carrying the current session. */
export function mockMismatch(store: MockStore): Response {
  const { instanceId, sessionRevision, conversationId, projectId } = store.state();
  return mockProblem(
    'session_mismatch',
    'The session changed since this action was made; nothing was done.',
    {
      current: { instanceId, sessionRevision, conversationId, projectId },
    },
  );
}
