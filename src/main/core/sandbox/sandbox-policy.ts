/**
 * What a sandboxed stdio server may touch (issue 25; docs/sandbox.md): the policy a server's
 * `sandbox` setting comes to, before any platform turns it into a jail (bwrap.ts on Linux).
 *
 * The default (`"sandbox": true`):
 * - read: the system's runtime paths (Linux: /usr, /bin, /sbin, /lib*, the parts of /etc that
 *   programs need to run, resolve names and check TLS certificates — not all of /etc), the
 *   directory the command lives in (its install prefix: `~/.nvm/versions/node/v22/bin/node` →
 *   `~/.nvm/versions/node/v22`), and for each absolute path among the arguments: its directory,
 *   every `node_modules` directory above it (where Node resolves its imports) and the nearest
 *   `package.json` above it (Node reads its `type`);
 * - write: the server's working directory (its `cwd`, else a directory of its own in the data
 *   dir), which is also its HOME, and a private /tmp;
 * - network: none, except for package runners (`npx`, `uvx`, `pnpm`, `bunx`, `yarn`), which must
 *   fetch the package: all (which registry a package comes from is the runner's configuration);
 * - subprocesses: allowed (package runners and many servers start one);
 * - nothing else of the user's home directory, no other server's files, no Patchbay data dir.
 * `read` and `write` in an object add paths (absolute, or `~/…`); `network` (`none`, `all` or a
 * list of hosts, reached through the hub's proxy: host-proxy.ts) and `subprocesses` override.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SandboxSetting } from '../../../shared/config-schema.js';

/** `hosts`: no network but the hub's proxy, which reaches only `SandboxPolicy.hosts`. */
export type SandboxNetwork = 'none' | 'all' | 'hosts';

export interface SandboxPolicy {
  /** Bound read-only, each where it is. */
  read: string[];
  /** Bound writable, each where it is. */
  write: string[];
  network: SandboxNetwork;
  /** With network `hosts`: the list (host-list.ts); else empty. */
  hosts: string[];
  /** false: the server cannot start another process (Linux: seccomp.ts; macOS: no process-fork). */
  subprocesses: boolean;
  /** The working directory inside, writable, also HOME. */
  cwd: string;
  /** Why the network is what it is (shown by the doctor and the server's status). */
  networkReason: string;
}

export interface PolicyContext {
  /** The command as configured and the arguments (secrets resolved). */
  command: string;
  /** The command's file, resolved on the child's PATH and through symlinks (undefined: not found). */
  commandPath: string | undefined;
  args: readonly string[];
  /** The configured working directory, if any. */
  cwd: string | undefined;
  /** The server's own directory in the data dir (used as cwd and HOME when none is configured). */
  ownDir: string;
  /** The user's home, for `~/…` in the setting. */
  home: string;
  /** Whose runtime paths are readable (default: this machine's). */
  platform?: NodeJS.Platform;
}

/** Linux: what programs need to run (dynamic loader, libraries, certificates, name resolution). */
export const LINUX_RUNTIME_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
export const LINUX_ETC_PATHS = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/pki',
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/gai.conf',
  '/etc/passwd',
  '/etc/group',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/os-release',
  '/etc/mime.types',
];

/**
 * macOS: the system's runtime (dyld's shared cache and frameworks live under /System and
 * /usr/lib), certificates and name resolution settings, time zones. /private/etc is /etc.
 */
export const MACOS_RUNTIME_PATHS = [
  '/usr/lib',
  '/usr/share',
  '/usr/bin',
  '/bin',
  '/System',
  '/Library/Apple',
  '/private/etc/ssl',
  '/private/etc/hosts',
  '/private/etc/resolv.conf',
  '/private/etc/passwd',
  '/private/etc/group',
  '/private/etc/localtime',
  '/private/var/db/timezone',
  '/dev/null',
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
];

const PACKAGE_RUNNERS = new Set(['npx', 'uvx', 'pnpm', 'pnpx', 'bunx', 'yarn', 'dnx']);

export function resolvePolicy(setting: SandboxSetting, ctx: PolicyContext): SandboxPolicy {
  const extra = typeof setting === 'object' ? setting : {};
  const cwd = ctx.cwd ?? ctx.ownDir;
  const read = new Set<string>((ctx.platform ?? process.platform) === 'darwin' ? MACOS_RUNTIME_PATHS : [...LINUX_RUNTIME_PATHS, ...LINUX_ETC_PATHS]);
  if (ctx.commandPath !== undefined) read.add(installPrefix(ctx.commandPath));
  for (const arg of ctx.args) for (const p of argumentPaths(arg)) read.add(p);
  for (const p of extra.read ?? []) read.add(expandHome(p, ctx.home));
  const write = new Set<string>([cwd, ...(extra.write ?? []).map((p) => expandHome(p, ctx.home))]);
  const runner = PACKAGE_RUNNERS.has(path.basename(ctx.command).replace(/\.(cmd|exe)$/i, ''));
  const hosts = Array.isArray(extra.network) ? extra.network : [];
  const network: SandboxNetwork = Array.isArray(extra.network) ? 'hosts' : (extra.network ?? (runner ? 'all' : 'none'));
  const networkReason =
    network === 'hosts'
      ? `network: only ${hosts.join(', ')}, through the hub's proxy (the server's setting)`
      : extra.network !== undefined
        ? `network: ${network} (the server's setting)`
        : runner
          ? 'network: all (a package runner must fetch its package; a list of its registry hosts can be set instead)'
          : 'network: none (the default)';
  // Only paths that exist are bound (bwrap refuses a missing source); a written path that does
  // not exist is left out, and the doctor shows the policy as resolved.
  return { read: [...read].filter(exists), write: [...write], network, hosts, subprocesses: extra.subprocesses ?? true, cwd, networkReason };
}

/** `~/x` → `<home>/x`; other paths as they are (relative ones are refused by the config check). */
export function expandHome(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

/** A command's install prefix: the parent of its `bin` directory, else its own directory. */
export function installPrefix(file: string): string {
  const dir = path.dirname(file);
  return path.basename(dir) === 'bin' ? path.dirname(dir) : dir;
}

/**
 * What an absolute path argument needs readable: its directory (or itself, a directory), the
 * `node_modules` directories above it and the nearest `package.json` above it — for the path
 * resolved through its symlinks, and, when one of its directories is a symlink (a worktree's
 * linked node_modules, a moved home), for the path as given too: the server is started with the
 * path as given, and bwrap binds a symlink's target at the symlink's place.
 */
export function argumentPaths(arg: string): string[] {
  if (!path.isAbsolute(arg) || !exists(arg)) return [];
  const real = realpathSync(arg);
  const isDir = statSync(real).isDirectory();
  const out = pathsAround(real, isDir);
  const given = path.resolve(arg);
  if (given !== real) for (const p of pathsAround(given, isDir)) if (!out.includes(p)) out.push(p);
  return out;
}

function pathsAround(file: string, isDir: boolean): string[] {
  const out = [isDir ? file : path.dirname(file)];
  let packageJson: string | undefined;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    // Inside node_modules, the outermost node_modules holds what the package imports.
    if (path.basename(dir) === 'node_modules') out.push(dir);
    else if (existsSync(path.join(dir, 'node_modules'))) out.push(path.join(dir, 'node_modules'));
    if (packageJson === undefined && existsSync(path.join(dir, 'package.json'))) packageJson = path.join(dir, 'package.json');
    if (path.dirname(dir) === dir) break;
  }
  if (packageJson !== undefined) out.push(packageJson);
  return out;
}

function exists(p: string): boolean {
  return existsSync(p);
}
