import { registerServiceWorker } from './registerServiceWorker';

// A second module script of index.html (bundled into the entry): registers the worker.
registerServiceWorker(window, import.meta.env.PROD);
