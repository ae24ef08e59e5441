import { render } from 'preact';
import './style.css';

/** Placeholder until the web client lands: says what this is and how to connect. */
function App() {
  return (
    <main class="card">
      <h1>webbridge</h1>
      <p>This bridge is running. The browser client is on its way.</p>
      <p class="hint">
        Until then, the API is live at <code>/api</code>: see <code>docs/PROTOCOL.md</code>.
      </p>
    </main>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
