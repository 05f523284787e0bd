/**
 * Starting a stdio server's process, and ending it together with everything it started.
 *
 * Windows (issue 17 item 9): `npx`, `npm`, `pnpm` and most tools installed with npm are `.cmd`
 * shims there. `spawn('npx')` without a shell gives ENOENT (no `npx.exe`), and `spawn('npx.cmd')`
 * gives EINVAL since Node 20.12.2 (CVE-2024-27980: batch files need a shell). A shell needs every
 * argument escaped for cmd.exe, which is what `cross-spawn` does (and only on Windows: elsewhere it
 * is `child_process.spawn`). Ending a server must end its children too (`npx` → `node`): POSIX
 * signals its process group, Windows has `taskkill /T`.
 */
import { execFile, type ChildProcess, type SpawnOptions } from 'node:child_process';
import crossSpawn from 'cross-spawn';

export interface ServerSpawnSpec {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

/** `child_process.spawn`'s shape (cross-spawn's too): what tests put in its place. */
export type Spawner = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => ChildProcess;

export interface ChildProcessDeps {
  platform?: NodeJS.Platform;
  /** Default: cross-spawn. */
  spawn?: Spawner;
  /** Sends a signal (POSIX). Default `process.kill`. */
  kill?: (pid: number, signal: NodeJS.Signals) => void;
  /** Runs a program to completion (Windows: taskkill). Default `child_process.execFile`. */
  exec?: (
    file: string,
    args: string[],
    done: (err: (Error & { code?: unknown }) | null) => void,
  ) => void;
}

/** How every stdio server is started on `platform`. */
export function serverSpawnOptions(spec: ServerSpawnSpec, platform: NodeJS.Platform): SpawnOptions {
  return {
    ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
    env: spec.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // POSIX: the leader of its own process group, so that one signal reaches its children too.
    // Windows: not detached (that would give it a console window of its own); taskkill /T ends
    // its tree instead.
    detached: platform !== 'win32',
    windowsHide: true,
  };
}

/** Starts a stdio server: its command and arguments exactly as configured, `.cmd` shims included. */
export function spawnServer(
  spec: ServerSpawnSpec,
  deps: Pick<ChildProcessDeps, 'platform' | 'spawn'> = {},
): ChildProcess {
  const spawn: Spawner = deps.spawn ?? crossSpawn;
  return spawn(
    spec.command,
    [...spec.args],
    serverSpawnOptions(spec, deps.platform ?? process.platform),
  );
}

/** The taskkill command line that ends `pid` and its tree on Windows: /F only for SIGKILL. */
export function taskkillArgs(pid: number, signal: NodeJS.Signals): string[] {
  // Without /F taskkill asks politely (WM_CLOSE): a GUI program may close cleanly, a console
  // program refuses, and the caller's next step (SIGKILL) forces it.
  return ['/pid', String(pid), '/T', ...(signal === 'SIGKILL' ? ['/F'] : [])];
}

/**
 * Ends a process and everything it started. POSIX: `signal` goes to the process group (the
 * process was started as its leader, see `serverSpawnOptions`), or to the process alone when it
 * leads none. Windows: `taskkill /pid N /T`, with /F for SIGKILL. Resolves false when nothing was
 * there to end (or, on Windows, taskkill refused without /F).
 */
export function killProcessTree(
  pid: number,
  signal: NodeJS.Signals,
  platform: NodeJS.Platform = process.platform,
  deps: Pick<ChildProcessDeps, 'kill' | 'exec'> = {},
): Promise<boolean> {
  if (platform === 'win32') {
    const exec =
      deps.exec ??
      ((file, args, done) => void execFile(file, args, { windowsHide: true }, (err) => done(err)));
    return new Promise((resolve) =>
      exec('taskkill', taskkillArgs(pid, signal), (err) => resolve(err === null)),
    );
  }
  const kill =
    deps.kill ?? ((target: number, sig: NodeJS.Signals) => void process.kill(target, sig));
  for (const target of [-pid, pid]) {
    try {
      kill(target, signal);
      return Promise.resolve(true);
    } catch (err) {
      // ESRCH for the group: the process leads none (or it is gone); try it alone, once.
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') return Promise.resolve(false);
    }
  }
  return Promise.resolve(false);
}
