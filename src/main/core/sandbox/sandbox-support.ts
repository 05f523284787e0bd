/**
 * Whether servers can be sandboxed here, and why not (shown by `patchbay doctor`, the server's
 * status and the error of a server that asks for a sandbox that cannot be had — it is never
 * started unsandboxed instead):
 * - Linux: bubblewrap must be installed and able to create its namespaces (some distributions and
 *   containers turn unprivileged user namespaces off); one real `bwrap … true` run says so.
 * - macOS: `/usr/bin/sandbox-exec` (Seatbelt, part of the system; deprecated by Apple but still
 *   what Chromium and others use) runs a generated profile (sbpl.ts).
 * - Windows: there is no equivalent that works without administrator rights or containers.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SANDBOX_EXEC } from './sbpl.js';

export interface SandboxSupport {
  available: boolean;
  /** What is used (`bwrap 0.8.0`), or why nothing can be, and what to do about it. */
  detail: string;
}

const probed = new Map<string, Promise<SandboxSupport>>();

/** Probes once per process (a sandbox that worked keeps working; a fix needs a restart). */
export function sandboxSupport(platform: NodeJS.Platform = process.platform, tool?: string): Promise<SandboxSupport> {
  if (platform === 'darwin') {
    const exec = tool ?? SANDBOX_EXEC;
    return Promise.resolve(
      existsSync(exec)
        ? { available: true, detail: `sandbox-exec (${exec})` }
        : { available: false, detail: `servers cannot be sandboxed on this Mac: ${exec} is missing (it is part of macOS; a system without it cannot run Seatbelt profiles)` },
    );
  }
  const bwrap = tool ?? 'bwrap';
  if (platform !== 'linux') return Promise.resolve({ available: false, detail: `servers cannot be sandboxed on ${platform === 'win32' ? 'Windows' : platform}: there is no process sandbox Patchbay can set up there without administrator rights` });
  let probe = probed.get(bwrap);
  if (!probe) probed.set(bwrap, (probe = probeBwrap(bwrap)));
  return probe;
}

function run(file: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (err, stdout, stderr) => resolve({ ok: err === null, out: `${stdout}${stderr}`.trim() }));
  });
}

async function probeBwrap(bwrap: string): Promise<SandboxSupport> {
  const version = await run(bwrap, ['--version']);
  if (!version.ok) return { available: false, detail: 'bubblewrap (bwrap) is not installed: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)' };
  const trial = await run(bwrap, ['--unshare-user', '--unshare-pid', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', 'true']);
  if (!trial.ok) return { available: false, detail: `bubblewrap cannot create its namespaces here (${trial.out.split('\n')[0] || 'no message'}): unprivileged user namespaces may be turned off (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor restriction on Ubuntu 24.04+)` };
  return { available: true, detail: version.out || 'bubblewrap' };
}
