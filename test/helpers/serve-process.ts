/**
 * `patchbay serve --port 0 --no-auth` from the build as a child process, on a data dir the test
 * prepared, stopped (SIGTERM, by pid) at cleanup: for tests that need the real CLI rather than an
 * in-process engine (test-hub.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { onCleanup } from './cleanup.js';
import { REPO_ROOT } from './repo-paths.js';
import { withTimeout } from './waits.js';

export const PATCHBAY_BIN = path.join(REPO_ROOT, 'bin', 'patchbay.js');

export interface ServeProcess {
  child: ChildProcess;
  /** The hub's URL, from its "hub running at" line. */
  url: string;
  exited: Promise<void>;
  /** stdout and stderr so far. */
  output(): string;
}

export async function startServeProcess(o: { dataDir: string; env?: Record<string, string>; nodeArgs?: string[]; baseEnv?: NodeJS.ProcessEnv }): Promise<ServeProcess> {
  const child: ChildProcess = spawn(process.execPath, [...(o.nodeArgs ?? []), PATCHBAY_BIN, 'serve', '--port', '0', '--no-auth', '--data-dir', o.dataDir], {
    env: { ...(o.baseEnv ?? process.env), PATCHBAY_NO_LOGIN_SHELL: '1', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onCleanup(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let output = '';
  const url = await withTimeout(
    new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer): void => {
        output += d.toString();
        const m = /hub running at (http:\/\/\S+)/.exec(output);
        if (m) resolve(m[1]!);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`patchbay serve exited with ${code}: ${output}`)));
    }),
    20_000,
    'patchbay serve to start',
  );
  return { child, url, exited, output: () => output };
}
