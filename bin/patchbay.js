#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (the README's setup does it).
import('../dist/main/cli/main.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/main/cli')) {
    process.stderr.write('patchbay: not built yet. Run `npm install && npm run build` in the repo first.\n');
    process.exit(1);
  }
  throw err;
});
