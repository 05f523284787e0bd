/**
 * Linux: a sandbox policy (sandbox-policy.ts) as a bubblewrap command line. The server runs in
 * new user, pid, ipc, uts and cgroup namespaces (and a network namespace with only its own
 * loopback when the network is `none` or a host list), on an empty root where only the policy's
 * paths exist: read-only binds, writable binds, a fresh /proc, a minimal /dev and a private /tmp.
 * It gets a session of its own (no TIOCSTI into a terminal) and is killed when bwrap's parent —
 * the hub's child handling — goes (`--die-with-parent`): the hub ends a server by ending bwrap,
 * and a hub killed with SIGKILL leaves no server behind.
 *
 * - `"subprocesses": false`: bwrap loads seccomp.ts's filter from fd 3 (`--seccomp 3`) just
 *   before it execs the server. The hub's child gets only stdin/stdout/stderr, so the command
 *   is `sh -c 'exec bwrap … 3<filter'`: the shell opens the filter file as fd 3 and becomes bwrap.
 * - a host list: the hub's proxy socket directory is bound read-only at /run/patchbay-proxy, and
 *   the forwarder (proxy-forwarder.ts) runs first, with the proxy variables set; with
 *   `"subprocesses": false` too, the forwarder passes the filter on to a nested bwrap.
 */
import { PROXY_DIR_INSIDE, forwarderCommand, proxyEnv } from './proxy-forwarder.js';
import type { SandboxPolicy } from './sandbox-policy.js';

export interface WrappedCommand {
  command: string;
  args: string[];
}

export interface BwrapExtras {
  bwrap?: string;
  /** `"subprocesses": false`: the filter's file (read by the shell as fd 3) and its bytes (for the forwarder). */
  seccomp?: { file: string; filter: Buffer };
  /** A host list: the directory holding the hub's proxy socket, and the Node that runs the forwarder. */
  proxy?: { dir: string; node: string };
}

export function bwrapCommand(policy: SandboxPolicy, command: string, args: readonly string[], extras: BwrapExtras = {}): WrappedCommand {
  const bwrap = extras.bwrap ?? 'bwrap';
  const out = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (policy.network !== 'all') out.push('--unshare-net');
  out.push('--die-with-parent', '--new-session', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // Parents first, read-only and writable alike, so a later bind of a parent never hides a
  // child's; a path both readable and writable is writable.
  const writable = new Set(policy.write);
  const binds = [...new Set([...policy.read, ...policy.write])].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  for (const p of binds) out.push(writable.has(p) ? '--bind' : '--ro-bind-try', p, p);
  out.push('--chdir', policy.cwd, '--setenv', 'HOME', policy.cwd, '--setenv', 'TMPDIR', '/tmp');
  const proxy = policy.network === 'hosts' ? extras.proxy : undefined;
  if (policy.network === 'hosts' && proxy === undefined) throw new Error('a host list needs the hub proxy');
  const seccomp = policy.subprocesses ? undefined : extras.seccomp;
  if (!policy.subprocesses && seccomp === undefined) throw new Error('"subprocesses": false needs the seccomp filter');
  if (proxy !== undefined) {
    // Read-only: the server can connect to the socket but not replace it.
    out.push('--ro-bind', proxy.dir, PROXY_DIR_INSIDE);
    for (const [k, v] of Object.entries(proxyEnv())) out.push('--setenv', k, v);
    out.push('--', ...forwarderCommand(proxy.node, command, args, seccomp?.filter));
    return { command: bwrap, args: out };
  }
  if (seccomp !== undefined) {
    out.push('--seccomp', '3', '--', command, ...args);
    return { command: '/bin/sh', args: ['-c', 'f=$1; shift; exec "$@" 3<"$f"', 'sh', seccomp.file, bwrap, ...out] };
  }
  out.push('--', command, ...args);
  return { command: bwrap, args: out };
}
