import { registerServiceWorker } from './registerServiceWorker';

// A second module script of index.html (bundled into the entry): registers the worker. Not in
// the mock mode: there MSW's worker holds the page's scope (src/mocks/browser/startMockWorker.ts)
// and a second registration at '/' would replace it.
registerServiceWorker(window, import.meta.env.PROD && import.meta.env.MODE !== 'mock');
