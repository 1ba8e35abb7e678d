import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
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
import('./ui/engine').then(start, failedToLoad);
registerServiceWorker();
void import('./ui/panels').catch(() => undefined);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
