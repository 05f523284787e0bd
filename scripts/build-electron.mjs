// Bundles the desktop app's four entry points, each into files that need nothing from
// node_modules at run time (so the packaged app does not depend on how Electron resolves ESM
// packages inside app.asar — issue 18; undici and jsonc-parser have no `exports` field):
// - the main process → dist/main/electron/main.js (package.json "main"); the engine, which
//   core's face loads on first use, becomes a chunk beside it, loaded the same way;
// - the sandboxed preload (a sandboxed preload can require only 'electron' and a few built-ins,
//   never our other modules) → dist/preload/preload.cjs;
// - the relay that Claude Desktop runs with the app's executable in Node mode, shipped outside
//   app.asar → dist/relay/patchbay-relay.mjs;
// - Patchbay's demo server, which a fresh data dir's config runs the same way (the app's
//   executable in Node mode; no Node.js or npx on the machine), also shipped outside app.asar
//   (src/main/electron/demo-server-entry.ts says why) → dist/demo/patchbay-demo-server.mjs.
// Types are checked by `npm run typecheck` (tsconfig.electron.json), not here. Run by
// `npm run build:electron`, which `npm run build` runs last.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (/** @type {string} */ p) => fileURLToPath(new URL(`../${p}`, import.meta.url));

/** @type {import('vite').InlineConfig} */
const common = { root, configFile: false, logLevel: 'warn', publicDir: false };

/**
 * A Node program in plain ESM: built-ins and `electron` stay imports, everything else is inlined.
 * @param {string} entry @param {string} outDir @param {string} fileName @param {Array<string | RegExp>} external
 * @returns {import('vite').InlineConfig}
 */
const nodeBundle = (entry, outDir, fileName, external) => ({
  ...common,
  build: {
    outDir: at(outDir),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    ssr: at(entry),
    // Chunks sit beside the entry: modules that find files relative to themselves (core's
    // home/version.ts reads ../../../package.json) see the same depth as in dist/main/core/*/.
    rollupOptions: { external, output: { format: 'es', entryFileNames: fileName, chunkFileNames: '[name]-[hash].js' } },
  },
  // (vite's own ssr.external takes names only; a pattern goes to rollup alone.)
  ssr: { noExternal: true, external: external.filter((e) => typeof e === 'string'), target: 'node' },
});

await build(nodeBundle('src/main/electron/main.ts', 'dist/main/electron', 'main.js', ['electron']));

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

await build(nodeBundle('src/main/electron/relay/relay-main.ts', 'dist/relay', 'patchbay-relay.mjs', []));

await build(nodeBundle('src/main/demo/demo-server.ts', 'dist/demo', 'patchbay-demo-server.mjs', []));

// Not the desktop app's: `patchbay relay` bundled on its own (bin/patchbay.js runs it for that
// command only, through its runRelayProcess export). Clients start a relay for every session, and
// loading the CLI's modules one file at a time was most of a relay's start (docs/performance.md,
// "The relay"); this file holds the relay and nothing of the other commands (`relay --url`'s
// engine is a chunk beside it, loaded only for --url; `relay --help` loads the compiled CLI,
// dist/main/cli/run-cli.js, which sits where the source's `../run-cli.js` import expects it). It
// sits at the depth of dist/main/cli/commands/, so the files its modules find relative to
// themselves (bin/patchbay.js, package.json) are where they expect them.
await build(nodeBundle('src/main/cli/commands/relay.ts', 'dist/main/cli/relay', 'patchbay-relay.mjs', [/\/run-cli\.js$/]));
console.log('built dist/main/electron/main.js, dist/preload/preload.cjs, dist/relay/patchbay-relay.mjs, dist/demo/patchbay-demo-server.mjs and dist/main/cli/relay/patchbay-relay.mjs');
