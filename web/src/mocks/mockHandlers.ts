import { http, type RequestHandler } from 'msw';
import type { MockBridge } from './createMockBridge';

/**
 * The MSW handlers of the web client's unit tests: every request to `/api/` on any origin is
 * answered by the mock bridge (the real bridge over the in-memory host), unknown routes and
 * wrong methods included, so the mocks cannot answer a route differently from the bridge.
 *
 * @example
 * ```ts
 * const server = setupServer(...mockHandlers(createMockBridge()));
 * server.listen({ onUnhandledRequest: 'error' });
 * ```
 */
export function mockHandlers(bridge: Pick<MockBridge, 'fetch'>): RequestHandler[] {
  return [http.all('*/api/*', ({ request }) => bridge.fetch(request))];
}
