#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build` (the README's setup does it).
import { statSync } from 'node:fs';
import module from 'node:module';

// Node ≥ 22.1 keeps compiled code between runs (in the OS temp dir): a client starts a relay for
// every session, and most of a relay's start is compiling the SDK and its schemas (≈ 15 % faster
// measured with Node 22 here). Older Node has no such function and skips it.
module.enableCompileCache?.();

const MAIN = new URL('../dist/main/cli/main.js', import.meta.url);
// `patchbay relay` runs from its own bundle (scripts/build-electron.mjs): one file with the relay
// and nothing of the other commands, instead of the CLI's hundreds of modules. Only while the
// bundle is at least as new as the compiled CLI: a `tsc` rebuild alone (development) must not
// leave it running yesterday's code.
const RELAY = new URL('../dist/main/cli/relay/patchbay-relay.mjs', import.meta.url);
function isCurrent(bundle) {
  try {
    return statSync(bundle).mtimeMs >= statSync(MAIN).mtimeMs;
  } catch {
    return false;
  }
}

const notBuilt = (err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/main/cli')) {
    process.stderr.write('patchbay: not built yet. Run `npm install && npm run build` in the repo first.\n');
    process.exit(1);
  }
  throw err;
};

if (process.argv[2] === 'relay' && isCurrent(RELAY)) {
  import(RELAY.href).then((relay) => relay.runRelayProcess(process.argv.slice(3))).catch(notBuilt);
} else {
  import(MAIN.href).catch(notBuilt);
}
