import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium';

// End-to-end tests run against the production build (`npm run test:e2e` builds first) served
// by `vite preview`. Playwright never downloads a browser here: it drives the system Chromium
// (Debian: `apt-get install chromium`), or the binary named by CHROMIUM_PATH.
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Small CI machines (2 cores) are faster and steadier with one worker.
  workers: availableParallelism() <= 2 ? 1 : undefined,
  fullyParallel: false,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  // A guard against a hung run, not a speed target: 119 tests took 15.4 minutes on an idle
  // 2-core machine; a hung run stops here, not at CI's limit.
  globalTimeout: 25 * 60_000,
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    serviceWorkers: 'block',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
