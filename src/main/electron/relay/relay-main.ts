/** Entry of the bundled relay script (dist/relay/patchbay-relay.mjs); see relay-entry.ts. */
import { relayEntry } from './relay-entry.js';

// `… | head` closing stdout early is the client going away, not an error worth a stack.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const code = await relayEntry(process.argv.slice(2), process.env);
process.exitCode = code;
// The relay is done: a handle left open (a socket in keep-alive) must not keep the process alive.
setTimeout(() => process.exit(code), 2000).unref();
