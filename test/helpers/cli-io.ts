/** The CLI run in-process (`runCli`) with its output kept: an io for a data dir (any of its fields overridden), and what it printed. */
import { Readable } from 'node:stream';
import type { CliIo } from '../../src/main/cli/command.js';

export function cli(dataDir: string, overrides: Partial<Omit<CliIo, 'stdout' | 'stderr'>> = {}): { io: CliIo; out(): string; err(): string } {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdin: Readable.from([]),
    env: { PATCHBAY_HOME: dataDir },
    platform: process.platform,
    homedir: dataDir,
    cwd: dataDir,
    ...overrides,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  return { io, out: () => stdout, err: () => stderr };
}
