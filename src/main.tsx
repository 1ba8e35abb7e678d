import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { failedToLoad, start } from './ui/store';
import './ui/app.css';

const container = document.getElementById('root');
if (container === null) {
  throw new Error('cnisim: missing #root element in index.html');
}

// The simulation engine is a lazy chunk: it downloads while React paints the first screen, and
// "Step forward" is enabled once it has arrived and the sandbox exists.
import('./ui/engine').then(start, failedToLoad);

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
