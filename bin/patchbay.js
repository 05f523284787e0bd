#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (the README's setup does it).
import module from 'node:module';

// Node ≥ 22.1 keeps compiled code between runs (in the OS temp dir): a client starts a relay for
// every session, and most of a relay's start is compiling the SDK and its schemas (≈ 15 % faster
// measured with Node 22 here). Older Node has no such function and skips it.
module.enableCompileCache?.();
import('../dist/main/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/main/cli')) {
    process.stderr.write('patchbay: not built yet. Run `npm install && npm run build` in the repo first.\n');
    process.exit(1);
  }
  throw err;
});
