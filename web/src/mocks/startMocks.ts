import { setupWorker } from 'msw/browser';
import { mockHandlers } from './handlers';
import { createMockBackend } from './mockBackend';

/**
 * Starts the MSW service worker with the contract's mock handlers (dev only: `main.tsx`
 * imports this module behind `import.meta.env.DEV`). The URL fragment `#code=mock` connects
 * at once; `window.webbridgeMock.hostSwitch()` simulates the phone switching conversation.
 */
export async function startMocks(): Promise<void> {
  const backend = createMockBackend();
  const worker = setupWorker(...mockHandlers(backend));
  await worker.start({ onUnhandledRequest: 'bypass', quiet: true });
  (globalThis as { webbridgeMock?: unknown }).webbridgeMock = backend;
}
