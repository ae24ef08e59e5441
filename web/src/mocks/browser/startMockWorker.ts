import { setupWorker } from 'msw/browser';
import { createMockBridge, type MockBridge } from '../createMockBridge';
import { mockHandlers } from '../mockHandlers';

/** Where the mock mode serves MSW's worker script (src/mocks/mockModePlugin.ts). */
const MOCK_WORKER_URL = '/mockServiceWorker.js';

/**
 * Starts the page's offline host: the real bridge (its web-standard core) over the scripted
 * in-memory host, running in this page, and MSW's service worker handing it every `/api/`
 * request the page makes; each answer, the event stream included, comes back as the bridge's
 * own Response. Resolves once the worker controls the page, so the first request is answered.
 */
export async function startMockWorker(): Promise<MockBridge> {
  const bridge = createMockBridge();
  const worker = setupWorker(...mockHandlers(bridge));
  await worker.start({
    serviceWorker: { url: MOCK_WORKER_URL },
    // The page's own files (scripts, fonts, icons) go to Vite as usual.
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
  return bridge;
}
