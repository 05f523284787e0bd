/** Entry point of the `patchbay` command (bin/patchbay.js imports the compiled copy of this file). */
import os from 'node:os';
import { runCli } from './run-cli.js';

// `patchbay secrets list | head -1` closes the pipe early; that is not an error worth a stack.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

const code = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  platform: process.platform,
  homedir: os.homedir(),
  cwd: process.cwd(),
});
process.exitCode = code;
// The command is done: a handle someone forgot to close must not keep the process alive.
setTimeout(() => process.exit(code), 2000).unref();
