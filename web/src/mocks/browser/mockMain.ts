// The page's entry in `vite --mode mock` (src/mocks/mockModePlugin.ts puts it in index.html in
// place of src/main.tsx): the offline host starts first, then the page as it always starts.
import './installBuffer';
import { startMockWorker } from './startMockWorker';

const bridge = await startMockWorker();
// For a person at the console (and the browser test): `webbridgeMock.hostSwitch()` moves the
// host to another conversation, `webbridgeMock.state()` shows its projection.
Object.assign(window, { webbridgeMock: bridge });
// The page's own entry (src/main.tsx), named through the mock plugin: the page's project is
// built apart from the mocks', and the page never imports them.
await import('virtual:webbridge-page');
