/** The CLI run in-process (`runCli`) with its output kept: an io for a data dir, and what it printed. */
import { Readable } from 'node:stream';
import type { CliIo } from '../../src/main/cli/command.js';

export function cli(dataDir: string): { io: CliIo; out(): string; err(): string } {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdin: Readable.from([]),
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { PATCHBAY_HOME: dataDir },
    platform: process.platform,
    homedir: dataDir,
    cwd: dataDir,
  };
  return { io, out: () => stdout, err: () => stderr };
}
