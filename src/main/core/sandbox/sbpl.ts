/**
 * macOS: a sandbox policy (sandbox-policy.ts) as a Seatbelt profile (SBPL) and the
 * `sandbox-exec -p <profile> <command…>` command line. Pure functions: no macOS machine runs the
 * tests here, so they check the generated text (test/sandbox/sbpl.test.ts says so).
 *
 * - deny by default;
 * - processes: `process-exec` (sandbox-exec itself execs the command after applying the profile)
 *   and, unless `"subprocesses": false`, `process-fork` (XNU checks posix_spawn as a fork too);
 * - files: metadata anywhere (Node's module resolution stats every parent of a path — names and
 *   sizes are visible, contents are not), contents of the runtime paths and the policy's `read`,
 *   writes to the working directory, the private temp directory and the policy's `write`;
 * - network: none; all; or a host list: outbound TCP to the hub's proxy on localhost:<port> only
 *   (SBPL can filter on localhost and a port, not on names: the proxy checks the names);
 * - what Node needs of the system: sysctl reads, its own process info, a few Mach services
 *   (notifications, user/group lookup, logging), and DNS (mDNSResponder) when the network is all.
 */
import type { SandboxPolicy } from './sandbox-policy.js';
import type { WrappedCommand } from './bwrap.js';
import { proxyEnv } from './proxy-forwarder.js';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

export interface SbplExtras {
  /** The server's private temp directory (TMPDIR), writable. */
  tmp: string;
  /** A host list: the hub proxy's port on 127.0.0.1. */
  proxyPort?: number;
}

/** An SBPL string literal; control characters cannot be written in one and are refused. */
export function sbplString(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new Error(`a sandbox path cannot hold control characters: ${JSON.stringify(s)}`);
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const MACH_SERVICES = ['com.apple.system.notification_center', 'com.apple.system.opendirectoryd.libinfo', 'com.apple.system.logger', 'com.apple.logd', 'com.apple.trustd.agent', 'com.apple.SecurityServer'];

export function sbplProfile(policy: SandboxPolicy, extras: SbplExtras): string {
  const paths = (list: readonly string[]) => list.map((p) => `  (subpath ${sbplString(p)})`).join('\n');
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    policy.subprocesses ? '(allow process-fork)' : '; "subprocesses": false — no process-fork (fork, vfork and posix_spawn)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target self))',
    '(allow sysctl-read)',
    `(allow mach-lookup\n${MACH_SERVICES.map((s) => `  (global-name ${sbplString(s)})`).join('\n')})`,
    '(allow file-read-metadata)',
    `(allow file-read*\n${paths(policy.read)})`,
    `(allow file-read* file-write*\n${paths([...new Set([...policy.write, policy.cwd, extras.tmp])])})`,
    '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/tty") (literal "/dev/dtracehelper"))',
  ];
  if (policy.network === 'all') {
    lines.push('(allow network*)', '(allow system-socket)', '(allow network-outbound (literal "/private/var/run/mDNSResponder"))', '(allow mach-lookup (global-name "com.apple.dnssd.service"))');
  } else if (policy.network === 'hosts') {
    if (extras.proxyPort === undefined) throw new Error('a host list needs the hub proxy');
    lines.push('(allow system-socket)', `(allow network-outbound (remote tcp ${sbplString(`localhost:${extras.proxyPort}`)}))`);
  }
  return `${lines.join('\n')}\n`;
}

/** The command line and the variables the server gets (HOME, TMPDIR, and the proxy's for a host list). */
export function sandboxExecCommand(policy: SandboxPolicy, command: string, args: readonly string[], extras: SbplExtras): WrappedCommand & { env: Record<string, string> } {
  const env: Record<string, string> = { HOME: policy.cwd, TMPDIR: extras.tmp };
  if (policy.network === 'hosts' && extras.proxyPort !== undefined) Object.assign(env, proxyEnv(`http://127.0.0.1:${extras.proxyPort}`));
  return { command: SANDBOX_EXEC, args: ['-p', sbplProfile(policy, extras), command, ...args], env };
}
