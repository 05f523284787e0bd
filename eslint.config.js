// ESLint flat config. Besides the usual checks it enforces the layer table of
// docs/architecture.md: who may import whom is checked by tooling, not by hope.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layersPlugin } from './eslint-rules/layers.js';

const nodeBuiltins = { group: ['node:*'], message: 'This layer must not use Node built-ins.' };
const electron = { group: ['electron', 'electron/*'], message: 'Only src/main/electron and src/preload may import electron.' };
const renderer = { group: ['**/renderer/**'], message: 'Main-side code must not import the renderer.' };
const mainCode = { group: ['**/main/**'], message: 'This layer must not import main-process code.' };
const react = { group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*'], message: 'UI libraries belong in src/renderer.' };
const core = { group: ['**/core/**'], message: 'This layer must not import the engine.' };

const restrict = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  // Electron belongs to the desktop shell: refused everywhere unless a folder block below allows it
  // (tests, scripts and benchmarks included). src/main/electron and src/preload are the only two.
  { files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'], rules: restrict(electron) },
  // The shared contract: zod only.
  { files: ['src/shared/**/*.ts'], rules: restrict(nodeBuiltins, electron, renderer, mainCode, react) },
  // The engine and the shells: who may import whom inside src/main is an allow-list
  // (eslint-rules/layers.js): shells use core only through src/main/core/index.ts, and core's
  // folders form a DAG. Packages are restricted here.
  { files: ['src/main/**/*.ts'], plugins: { patchbay: layersPlugin }, rules: { 'patchbay/layers': 'error' } },
  // The engine: no electron, no renderer. Logging goes through the scoped logger.
  { files: ['src/main/core/**/*.ts'], rules: { ...restrict(electron, renderer, react), 'no-console': 'error' } },
  { files: ['src/main/cli/**/*.ts', 'src/main/relay/**/*.ts'], rules: restrict(electron, renderer, react) },
  { files: ['src/main/electron/**/*.ts'], rules: restrict(renderer, react) },
  { files: ['src/preload/**/*.ts'], rules: restrict(nodeBuiltins, core, renderer, react) },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict(nodeBuiltins, electron, mainCode),
  },
  { files: ['e2e/**/*.ts'], rules: restrict(electron, { group: ['**/src/main/**', '**/src/renderer/**'], message: 'e2e tests drive the app from outside; use src/shared only.' }) },
);
