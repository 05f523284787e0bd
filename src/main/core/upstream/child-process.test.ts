/**
 * Starting and ending stdio servers, per platform. This machine is Linux: Windows is simulated
 * (the spawner and exec are injected, and cross-spawn's own parser is evaluated as on win32), so
 * these tests pin the exact programs and arguments that would reach Windows. The POSIX kill is
 * tried for real on a process group of real processes.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  killProcessTree,
  serverSpawnOptions,
  spawnServer,
  taskkillArgs,
  type Spawner,
} from './child-process.js';
import { skipNote, WINDOWS } from '../../../../test/helpers/skip-note.js';

interface Call {
  command: string;
  args: readonly string[];
  options: SpawnOptions;
}

const fakeChild = (): ChildProcess => new EventEmitter() as ChildProcess;
const recorder =
  (calls: Call[]): Spawner =>
  (command, args, options) => {
    calls.push({ command, args, options });
    return fakeChild();
  };

const require = createRequire(import.meta.url);
type CrossSpawnParse = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => { command: string; args: string[]; options: SpawnOptions };

/**
 * cross-spawn's argument parser as it behaves on Windows. It (and `which`, `isexe`) read
 * `process.platform` when they load, so a fresh copy is loaded while the platform is faked, then
 * dropped from the cache again.
 */
function crossSpawnParseOnWindows(): CrossSpawnParse {
  const ours = (id: string): boolean =>
    /[\\/]node_modules[\\/](cross-spawn|which|isexe|path-key|shebang-command|shebang-regex)[\\/]/.test(
      id,
    );
  const drop = (): void => {
    for (const id of Object.keys(require.cache)) if (ours(id)) delete require.cache[id];
  };
  const real = process.platform;
  drop();
  Object.defineProperty(process, 'platform', { value: 'win32' });
  try {
    return (require('cross-spawn') as { _parse: CrossSpawnParse })._parse;
  } finally {
    Object.defineProperty(process, 'platform', { value: real });
    drop();
  }
}

let dir: string | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const spec = {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', 'C:\\My Files', 'a&b'],
  env: { PATH: '/x' },
  cwd: '/work',
};

describe('spawnServer', () => {
  it('POSIX: the command as configured, in a process group of its own', () => {
    const calls: Call[] = [];
    spawnServer(spec, { platform: 'linux', spawn: recorder(calls) });
    expect(calls).toEqual([
      {
        command: 'npx',
        args: spec.args,
        options: {
          cwd: '/work',
          env: { PATH: '/x' },
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
          windowsHide: true,
        },
      },
    ]);
    expect(serverSpawnOptions(spec, 'darwin').detached).toBe(true);
  });

  it('Windows: no detached (no console window of its own), hidden', () => {
    const calls: Call[] = [];
    spawnServer(spec, { platform: 'win32', spawn: recorder(calls) });
    expect(calls[0]!.options).toEqual({
      cwd: '/work',
      env: { PATH: '/x' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: false,
      windowsHide: true,
    });
  });

  it('Windows (simulated): `npx` is an npx.cmd shim, run through cmd.exe with every argument escaped for it', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pb-spawn-'));
    await writeFile(
      path.join(dir, 'npx.cmd'),
      '@ECHO off\r\nnode "%~dp0\\node_modules\\npm\\bin\\npx-cli.js" %*\r\n',
    );
    vi.stubEnv('PATHEXT', '.COM;.EXE;.BAT;.cmd');
    vi.stubEnv('comspec', 'C:\\Windows\\system32\\cmd.exe');
    const parse = crossSpawnParseOnWindows();
    const calls: Call[] = [];
    // What cross-spawn hands to child_process.spawn on Windows, given our spec and options.
    const windowsSpawn: Spawner = (command, args, options) => {
      const parsed = parse(command, args, options);
      calls.push({ command: parsed.command, args: parsed.args, options: parsed.options });
      return fakeChild();
    };
    spawnServer(
      { command: spec.command, args: spec.args, env: { PATH: dir } },
      { platform: 'win32', spawn: windowsSpawn },
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.command).toBe('C:\\Windows\\system32\\cmd.exe');
    // cmd.exe /d /s /c "…": each argument quoted, cmd's metacharacters (space, &, ", …) escaped
    // with ^ outside any quotes cmd would see, so `a&b` stays one argument and runs nothing.
    expect(calls[0]!.args).toEqual([
      '/d',
      '/s',
      '/c',
      '"npx ^"-y^" ^"@modelcontextprotocol/server-filesystem^" ^"C:\\My^ Files^" ^"a^&b^""',
    ]);
    expect(calls[0]!.options).toMatchObject({
      windowsVerbatimArguments: true,
      detached: false,
      windowsHide: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  });

  it('Windows (simulated): an .exe (node) is started directly, no shell', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pb-spawn-'));
    await writeFile(path.join(dir, 'node.exe'), '');
    vi.stubEnv('PATHEXT', '.exe;.cmd');
    const parse = crossSpawnParseOnWindows();
    const parsed = parse(
      'node',
      ['server.js', 'a b'],
      serverSpawnOptions({ command: 'node', args: [], env: { PATH: dir } }, 'win32'),
    );
    expect(parsed.command).toBe('node');
    expect(parsed.args).toEqual(['server.js', 'a b']);
    expect(parsed.options.windowsVerbatimArguments).toBeUndefined();
  });

  it('starts a real process with the default spawner (cross-spawn is child_process.spawn on POSIX)', async () => {
    const child = spawnServer({
      command: process.execPath,
      args: ['-e', 'process.stdout.write(process.argv[1])', 'x&y z'],
      env: { PATH: process.env.PATH ?? '' },
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out).toBe('x&y z');
  });
});

describe('killProcessTree', () => {
  it('Windows (simulated): taskkill /pid N /T, with /F only for the last step', async () => {
    const ran: Array<[string, string[]]> = [];
    const exec = (file: string, args: string[], done: (err: Error | null) => void): void => {
      ran.push([file, args]);
      done(null);
    };
    expect(await killProcessTree(4242, 'SIGTERM', 'win32', { exec })).toBe(true);
    expect(await killProcessTree(4242, 'SIGKILL', 'win32', { exec })).toBe(true);
    expect(ran).toEqual([
      ['taskkill', ['/pid', '4242', '/T']],
      ['taskkill', ['/pid', '4242', '/T', '/F']],
    ]);
    expect(taskkillArgs(1, 'SIGINT')).toEqual(['/pid', '1', '/T']);
    // taskkill failing (no such process, or it refuses without /F) is reported, not thrown.
    expect(
      await killProcessTree(1, 'SIGTERM', 'win32', {
        exec: (_f, _a, done) => done(Object.assign(new Error('exit 128'), { code: 128 })),
      }),
    ).toBe(false);
  });

  it('POSIX: signals the process group, or the process alone when it leads none', async () => {
    const sent: Array<[number, string]> = [];
    expect(
      await killProcessTree(77, 'SIGTERM', 'linux', {
        kill: (pid, sig) => void sent.push([pid, sig]),
      }),
    ).toBe(true);
    expect(sent).toEqual([[-77, 'SIGTERM']]);
    const esrch = Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' });
    const tried: number[] = [];
    const kill = (pid: number): void => {
      tried.push(pid);
      if (pid < 0) throw esrch;
    };
    expect(await killProcessTree(78, 'SIGKILL', 'darwin', { kill })).toBe(true);
    expect(tried).toEqual([-78, 78]);
    expect(
      await killProcessTree(79, 'SIGKILL', 'linux', {
        kill: () => {
          throw esrch;
        },
      }),
    ).toBe(false);
  });

  it.runIf(!WINDOWS)(
    skipNote(WINDOWS, 'POSIX, for real: ends a server and the child it started', 'process groups and signals are POSIX; the taskkill /T that Windows uses is tested above by its arguments'),
    async () => {
      // A server (its own group, as spawnServer starts it) that starts a child and prints its pid.
      const script =
        "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' }); process.stdout.write(String(c.pid)); setInterval(() => {}, 1e9);";
      const server = spawnServer({
        command: process.execPath,
        args: ['-e', script],
        env: { PATH: process.env.PATH ?? '' },
      });
      const grandchild = Number(
        await new Promise<string>((resolve) =>
          server.stdout!.once('data', (d: Buffer) => resolve(d.toString())),
        ),
      );
      const serverGone = new Promise((resolve) => server.once('exit', resolve));
      try {
        expect(await killProcessTree(server.pid!, 'SIGTERM')).toBe(true);
        await serverGone;
        // The grandchild got the same signal: poll until the kernel has reaped it.
        await vi.waitFor(() => expect(() => process.kill(grandchild, 0)).toThrow(), {
          timeout: 10_000,
          interval: 20,
        });
      } finally {
        for (const pid of [server.pid!, grandchild]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone, as it should be
          }
        }
      }
    },
  );
});
