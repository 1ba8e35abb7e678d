import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/*
 * Most test files share their worker's modules (isolate: false): the setup file loads the whole
 * engine, which took 44% of the suite's time when every one of 178 files loaded it anew. Tests
 * here hold no module state between files (no vi.mock, no stubbed globals), except these, which
 * get fresh modules: the UI's store and its notices (src/ui/app, the root-level modules' tests: a
 * notice left by one file shows in the next), and the landing test, which resets the registry
 * to load the landing's engine alone.
 */
const OWN_MODULES = ['src/engine/landing.test.ts', 'src/ui/*.test.ts', 'src/ui/app/**/*.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['./vitest.setup.ts'],
    testTimeout: 30_000,
    // Vitest's default is one worker fewer than the cores: one worker on CI's two.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'tools/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: OWN_MODULES } },
    ],
  },
});
