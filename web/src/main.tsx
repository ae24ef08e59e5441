import { render } from 'preact';
import { App } from './components/App';
import './styles.css';
import './agentChrome.css';

/** Starts the page. Under `vite` (dev) the dev server itself answers /api/ (src/mocks). */
function boot(): void {
  const root = document.getElementById('app');
  if (root) render(<App />, root);
}

boot();
