/** Entry point of the `patchbay` command (bin/patchbay.js imports the compiled copy of this file). */
import os from 'node:os';
import type { CliIo } from './command.js';

// `patchbay secrets list | head -1` closes the pipe early; that is not an error worth a stack.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const io: CliIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  platform: process.platform,
  homedir: os.homedir(),
  cwd: process.cwd(),
};
const argv = process.argv.slice(2);
// The relay is launched by desktop clients for every session: load only what it needs (about
// half the start-up time of loading every command), and let no other command's module stop it.
const code =
  argv[0] === 'relay'
    ? await (await import('./commands/relay.js')).relayMain(argv.slice(1), io)
    : await (await import('./run-cli.js')).runCli(argv, io);
process.exitCode = code;
// The relay is done once stdout has taken its last line: end now rather than wait for Node to
// tear down an embedded engine (`relay --url`); clients give a relay half a second, then kill it.
if (argv[0] === 'relay') process.stdout.write('', () => process.exit(code));
// The command is done: a handle someone forgot to close must not keep the process alive.
setTimeout(() => process.exit(code), 2000).unref();
