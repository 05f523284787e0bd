/**
 * The engine's side of sandboxing: a stdio server whose entry has `sandbox` is started inside
 * bubblewrap (Linux) or sandbox-exec (macOS) with the policy its setting comes to. When no sandbox
 * can be had here the server does not start — it fails with why (sandbox-support.ts) — never
 * unsandboxed.
 *
 * A server with a host list gets a proxy of its own in the hub (host-proxy.ts), started with its
 * first child and kept, for all its children, until the engine stops (or its list changes). Its
 * socket, and the seccomp filter of `"subprocesses": false`, live in a private directory of this
 * hub's (mkdtemp, 0700) under the system temp dir: short paths (a unix socket's is limited to
 * about 100 bytes) and outside the data dir, which no sandbox may see.
 */
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StdioServerConfig } from '../../../shared/config-schema.js';
import type { Logger } from '../log/logger.js';
import { resolveCommand } from '../upstream/command-resolve.js';
import type { StdioSpawnSpec } from '../upstream/stdio-upstream.js';
import { bwrapCommand, type BwrapExtras } from './bwrap.js';
import { HostProxy, type HostDenial } from './host-proxy.js';
import { PROXY_SOCKET_NAME } from './proxy-forwarder.js';
import { installPrefix, resolvePolicy, type SandboxPolicy } from './sandbox-policy.js';
import { sandboxSupport } from './sandbox-support.js';
import { sandboxExecCommand } from './sbpl.js';
import { noSubprocessFilter } from './seccomp.js';

export type SandboxWrap = (server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec) => Promise<StdioSpawnSpec>;

export interface SandboxOptions {
  /** Host lists: how the proxy turns a name into an address (default: host-proxy.ts's publicResolve). */
  resolve?: (host: string) => Promise<string>;
  /** Every request a host list refused (the audit trail and the UI take these). */
  onDenied?: (denial: HostDenial) => void;
  logger?: Logger;
  /** The Node a host list's forwarder runs on (default: the hub's own, `process.execPath`; tests pass another). */
  forwarderNode?: string;
}

export interface SandboxWrapper extends SandboxWrap {
  /** Stops the host proxies and removes the private directory. */
  close(): Promise<void>;
}

/** Where a sandboxed server without a configured `cwd` works (also its HOME): `<data dir>/sandbox/<id>`. */
export function sandboxHome(dataDir: string, serverId: string): string {
  return path.join(dataDir, 'sandbox', serverId);
}

export async function policyFor(server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec, dataDir: string): Promise<SandboxPolicy> {
  // Found as the doctor finds it, then through its symlinks: its install prefix is what is bound.
  const found = await resolveCommand(spec.command, spec.env.PATH, process.platform);
  const commandPath = found === undefined ? undefined : await realpath(found).catch(() => found);
  return resolvePolicy(server.sandbox ?? true, { command: spec.command, commandPath, args: spec.args, cwd: spec.cwd, ownDir: sandboxHome(dataDir, serverId), home: os.homedir() });
}

export function sandboxWrapper(dataDir: string, options: SandboxOptions = {}): SandboxWrapper {
  const data = path.resolve(dataDir);
  // The private directory, the seccomp filter's file and each server's proxy are each one promise,
  // cached before any await — so children starting together share one, and `close()` finds every
  // one made — and dropped when it fails, so one failure is not every later start's error too.
  let runDir: Promise<string> | undefined;
  const privateDir = (): Promise<string> => {
    if (runDir) return runDir;
    const attempt = (runDir = mkdtemp(path.join(os.tmpdir(), 'patchbay-sandbox-')));
    attempt.catch(() => runDir === attempt && (runDir = undefined));
    return attempt;
  };
  let filterFile: Promise<string> | undefined;
  const filterFileOf = (filter: Buffer): Promise<string> => {
    if (filterFile) return filterFile;
    const attempt = (filterFile = privateDir().then(async (dir) => {
      const file = path.join(dir, `no-subprocesses-${process.arch}.bpf`);
      await writeFile(file, filter, { mode: 0o600 });
      return file;
    }));
    attempt.catch(() => filterFile === attempt && (filterFile = undefined));
    return attempt;
  };
  const proxies = new Map<string, { hosts: string; ready: Promise<{ proxy: HostProxy; dir: string }> }>();
  let made = 0;

  /** The server's proxy: its socket in `<private dir>/p<n>/` (Linux), or a loopback port (macOS). */
  const proxyFor = (serverId: string, hosts: string[], tcp: boolean): Promise<{ proxy: HostProxy; dir: string }> => {
    const key = JSON.stringify(hosts);
    const had = proxies.get(serverId);
    if (had?.hosts === key) return had.ready;
    if (had) void had.ready.then(({ proxy }) => proxy.close(), () => undefined);
    const ready = privateDir().then(async (base) => {
      const dir = path.join(base, `p${made++}`);
      await mkdir(dir, { mode: 0o700 });
      const proxy = await HostProxy.listen(tcp ? 0 : path.join(dir, PROXY_SOCKET_NAME), serverId, hosts, { ...options, ...(options.logger ? { logger: options.logger.child(`sandbox-proxy:${serverId}`) } : {}) });
      return { proxy, dir };
    });
    const entry = { hosts: key, ready };
    proxies.set(serverId, entry);
    ready.catch(() => proxies.get(serverId) === entry && proxies.delete(serverId));
    return ready;
  };

  const wrap = async (server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec): Promise<StdioSpawnSpec> => {
    const support = await sandboxSupport();
    if (!support.available) throw new Error(`server '${serverId}' is set to run in a sandbox, and none is available here: ${support.detail}`);
    const own = sandboxHome(data, serverId);
    await mkdir(own, { recursive: true, mode: 0o700 });
    const policy = await policyFor(server, serverId, spec, dataDir);
    // A host list on Linux: the forwarder runs first, on the hub's own Node (inside Electron: its
    // binary as Node), which is bound too — before the check below, which every bind goes through.
    const node = options.forwarderNode ?? process.execPath;
    const forwarder = process.platform !== 'darwin' && policy.network === 'hosts' ? forwarderReads(node, data, own) : undefined;
    if (forwarder !== undefined) policy.read.push(forwarder);
    // The data dir holds every server's keys and the hub token: no sandbox may see it, except
    // the server's own directory inside it.
    const exposing = exposingPath([...policy.read, ...policy.write], data, own);
    if (exposing !== undefined && exposing === forwarder) {
      throw new Error(`server '${serverId}': its sandbox would expose Patchbay's data dir (${data}) through ${node}, the Node its host list's proxy forwarder runs on (the hub's own): run Patchbay on a Node installed outside the data dir`);
    }
    if (exposing !== undefined) throw new Error(`server '${serverId}': its sandbox would expose Patchbay's data dir (${data}) through ${exposing}; give it a cwd and paths outside it`);

    if (process.platform === 'darwin') {
      // No private /tmp on macOS: a temp dir in the server's own directory.
      const tmp = path.join(own, '.tmp');
      await mkdir(tmp, { recursive: true, mode: 0o700 });
      const proxyPort = policy.network === 'hosts' ? (await proxyFor(serverId, policy.hosts, true)).proxy.port : undefined;
      // Seatbelt matches the path a file resolves to (/tmp is /private/tmp): each path as given and as resolved.
      const both = (list: string[]) => [...new Set(list.flatMap((p) => [p, realOr(p)]))];
      const seatbelt = { ...policy, read: both(policy.read), write: both([...policy.write, policy.cwd]) };
      const wrapped = sandboxExecCommand(seatbelt, spec.command, spec.args, { tmp: realOr(tmp), ...(proxyPort !== undefined ? { proxyPort } : {}) });
      return { ...spec, command: wrapped.command, args: wrapped.args, env: { ...spec.env, ...wrapped.env }, cwd: policy.cwd };
    }

    const extras: BwrapExtras = {};
    let env = spec.env;
    if (!policy.subprocesses) {
      const filter = noSubprocessFilter();
      if (filter === undefined) throw new Error(`server '${serverId}' is set to start no subprocesses, which Patchbay can enforce on x86_64 and aarch64 only, not on ${process.arch}: it does not start`);
      extras.seccomp = { file: await filterFileOf(filter), filter };
    }
    if (policy.network === 'hosts') {
      extras.proxy = { dir: (await proxyFor(serverId, policy.hosts, false)).dir, node };
      if (process.versions.electron !== undefined) env = { ...env, ELECTRON_RUN_AS_NODE: '1' };
    }
    const wrapped = bwrapCommand(policy, spec.command, spec.args, extras);
    return { ...spec, command: wrapped.command, args: wrapped.args, env, cwd: policy.cwd };
  };

  return Object.assign(wrap, {
    close: async () => {
      await Promise.all([...proxies.values()].map((p) => p.ready.then(({ proxy }) => proxy.close(), () => undefined)));
      proxies.clear();
      if (runDir) await rm(await runDir, { recursive: true, force: true });
      runDir = filterFile = undefined;
    },
  });
}

/**
 * The first of `paths` whose bind would expose the data dir: the dir itself, one that holds it, or
 * one inside it other than the server's own directory.
 */
function exposingPath(paths: readonly string[], data: string, own: string): string | undefined {
  return paths.find((p) => p !== own && !within(p, own) && (within(data, p) || within(p, data)));
}

/**
 * What the sandbox reads of the Node a host list's forwarder runs on: its install prefix, as for
 * any command — unless that would expose the data dir (a Node at `~/bin/node` or `~/node` has `~`
 * as its prefix, and `~` holds `~/.patchbay`); then the binary alone. Not a refusal: this Node is
 * the hub's own, not one the user chose for the server, so nothing in the server's setting could
 * fix it; and the forwarder needs nothing else of its directory (`node -e` with built-in modules;
 * a Node build's libraries are the system's, bound already). An Electron binary needs files beside
 * it, but an Electron app is installed as a directory of its own, which is then its prefix. A binary
 * inside the data dir itself is still refused by the check every bind goes through.
 */
function forwarderReads(node: string, data: string, own: string): string {
  const prefix = installPrefix(node);
  return exposingPath([prefix], data, own) === undefined ? prefix : node;
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** `inner` is `outer` or lies inside it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
