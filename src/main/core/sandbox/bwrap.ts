/**
 * Linux: a sandbox policy (sandbox-policy.ts) as a bubblewrap command line. The server runs in
 * new user, pid, ipc, uts and cgroup namespaces (and a network namespace with only its own
 * loopback when the network is `none`), on an empty root where only the policy's paths exist:
 * read-only binds, writable binds, a fresh /proc, a minimal /dev and a private /tmp. It gets a
 * session of its own (no TIOCSTI into a terminal) and is killed when bwrap's parent — the hub's
 * child handling — goes (`--die-with-parent`): the hub ends a server by ending bwrap, and a hub
 * killed with SIGKILL leaves no server behind.
 */
import type { SandboxPolicy } from './sandbox-policy.js';

export interface WrappedCommand {
  command: string;
  args: string[];
}

export function bwrapCommand(policy: SandboxPolicy, command: string, args: readonly string[], bwrap = 'bwrap'): WrappedCommand {
  const out = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (policy.network === 'none') out.push('--unshare-net');
  out.push('--die-with-parent', '--new-session', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // Parents first, read-only and writable alike, so a later bind of a parent never hides a
  // child's; a path both readable and writable is writable.
  const writable = new Set(policy.write);
  const binds = [...new Set([...policy.read, ...policy.write])].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  for (const p of binds) out.push(writable.has(p) ? '--bind' : '--ro-bind-try', p, p);
  out.push('--chdir', policy.cwd, '--setenv', 'HOME', policy.cwd, '--setenv', 'TMPDIR', '/tmp', '--', command, ...args);
  return { command: bwrap, args: out };
}
