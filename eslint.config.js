// @ts-check
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    'dist/',
    'node_modules/',
    'conformance/',
    'coverage/',
    'test-results/',
    'playwright-report/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    rules: {
      // The engine re-creates Go error strings (wrapping is textual, as in fmt.Errorf): an Error
      // cause chain would add nothing a user sees.
      'preserve-caught-error': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  // Browser code: the React UI.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/engine/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/main.tsx'],
    extends: [reactHooks.configs.flat['recommended-latest']],
  },

  // The UI reaches the engine only through its facade, src/engine/index.ts (its README says why);
  // tests may reach further. tools/layers.ts checks dynamic imports too.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/engine/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+engine/',
              message:
                'Import the engine through its facade (src/engine/index.ts): types, LEVELS, table readers and the loaders of its late parts.',
            },
          ],
        },
      ],
    },
  },

  // The engine is pure TypeScript that also runs in Node: no UI libraries, no browser globals.
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react/*', 'react-dom', 'react-dom/*'],
              message: 'src/engine must not depend on React: keep it pure TypeScript.',
            },
            {
              group: ['zustand', 'zustand/*', 'mermaid', 'mermaid/*', 'd3', 'd3/*', 'd3-*'],
              message: 'src/engine must not depend on UI/state/visualisation libraries.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'src/engine runs in Node too: no DOM globals.' },
        { name: 'document', message: 'src/engine runs in Node too: no DOM globals.' },
        { name: 'localStorage', message: 'src/engine runs in Node too: no browser storage.' },
      ],
    },
  },

  // Node code: tools, benchmarks, tests and config files.
  {
    files: [
      'tools/**/*.ts',
      'bench/**/*.ts',
      'e2e/**/*.ts',
      'src/**/*.test.ts',
      '*.config.{js,ts}',
    ],
    languageOptions: { globals: globals.node },
  },
]);
