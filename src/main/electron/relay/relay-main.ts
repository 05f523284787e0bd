/** Entry of the bundled relay script (dist/relay/patchbay-relay.mjs); see relay-entry.ts. */
import { relayEntry } from './relay-entry.js';

// `… | head` closing stdout early is the client going away, not an error worth a stack.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const code = await relayEntry(process.argv.slice(2), process.env);
process.exitCode = code;
// The relay is done (its client closed stdin, its session is deleted) once stdout has taken its
// last line: end now, as `patchbay relay` does (src/main/cli/main.ts), rather than wait for a
// handle left open (a keep-alive socket to the hub) — clients give a relay half a second, then kill it.
process.stdout.write('', () => process.exit(code));
// Should stdout never drain (a client that stopped reading), still go.
setTimeout(() => process.exit(code), 2000).unref();
