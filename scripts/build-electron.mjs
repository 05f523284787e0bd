// Bundles the two desktop files that must be single files:
// - the sandboxed preload (a sandboxed preload can require only 'electron' and a few built-ins,
//   never our other modules) → dist/preload/preload.cjs
// - the relay that Claude Desktop runs with the app's executable in Node mode, shipped outside
//   app.asar → dist/relay/patchbay-relay.mjs
// The main process itself is compiled by `tsc -p tsconfig.electron.json` (it loads dist/ and
// node_modules like any Node program). Run by `npm run build:electron`.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (/** @type {string} */ p) => fileURLToPath(new URL(`../${p}`, import.meta.url));

/** @type {import('vite').InlineConfig} */
const common = { root, configFile: false, logLevel: 'warn', publicDir: false };

await build({
  ...common,
  build: {
    outDir: at('dist/preload'),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: { entry: at('src/preload/preload.ts'), formats: ['cjs'], fileName: () => 'preload.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});

await build({
  ...common,
  build: {
    outDir: at('dist/relay'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    // A Node program: built-ins stay imports, everything else is inlined.
    ssr: at('src/main/electron/relay/relay-main.ts'),
    rollupOptions: { output: { format: 'es', entryFileNames: 'patchbay-relay.mjs' } },
  },
  ssr: { noExternal: true, target: 'node' },
});
console.log('built dist/preload/preload.cjs and dist/relay/patchbay-relay.mjs');
