// The reference page of `npm run bench:ui`: Vite + React and nothing else.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <h1>A blank Vite + React page</h1>
  </StrictMode>,
);
