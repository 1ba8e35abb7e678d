import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Static site: relative asset URLs (`base: './'`) so the build works from any sub-path
// (GitHub Pages project sites, a file server directory, ...).
export default defineConfig({
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
});
