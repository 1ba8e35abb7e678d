import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { loadEngine } from './engine';
import { App } from './ui/App';
import { failedToLoad, start } from './ui/store';
import './ui/app.css';
import { registerServiceWorker } from './offline/register';

const container = document.getElementById('root');
if (container === null) {
  throw new Error('cnisim: missing #root element in index.html');
}

// The simulation engine and the panels that read it are lazy chunks: they download while React
// paints the first screen, and "Step forward" is enabled once the sandbox exists.
const engine = loadEngine();
void import('./ui/panels').catch(() => undefined);

// The first screen is rendered now, in this task, so that the browser paints it before the
// engine's code (arriving meanwhile) is evaluated: a concurrent render would yield to it.
const root = createRoot(container);
flushSync(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
engine.then(start, failedToLoad);
registerServiceWorker();
