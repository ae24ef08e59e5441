import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createMockBridge, type MockBridge, type MockBridgeOptions } from './createMockBridge';
import { mockHandlers } from './mockHandlers';

/**
 * For a test file: msw/node intercepts `fetch` and answers `/api/` with a mock bridge (the real
 * bridge over the in-memory host), a fresh one per `start`, closed after each test. A request
 * that nothing answers fails the test.
 */
export function useMockBridge(defaults: MockBridgeOptions = {}): {
  start(options?: MockBridgeOptions): MockBridge;
} {
  const server = setupServer();
  const open: MockBridge[] = [];
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(async () => {
    server.resetHandlers();
    await Promise.all(open.splice(0).map((bridge) => bridge.close()));
  });
  afterAll(() => server.close());
  return {
    start(options = {}) {
      const bridge = createMockBridge({ ...defaults, ...options });
      open.push(bridge);
      server.use(...mockHandlers(bridge));
      return bridge;
    },
  };
}
