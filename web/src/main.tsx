import { render } from 'preact';
import { App } from './components/App';
import './styles.css';

/** Starts the page; in `vite` dev mode first starts the MSW mocks so no host is needed. */
async function boot(): Promise<void> {
  // import.meta.env.DEV is false in the production build, so the mocks are not bundled.
  if (import.meta.env.DEV && import.meta.env.VITE_MOCKS !== 'off') {
    const { startMocks } = await import('./mocks/startMocks');
    await startMocks();
  }
  const root = document.getElementById('app');
  if (root) render(<App />, root);
}

void boot();
