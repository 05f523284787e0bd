/**
 * Whether the command a package runs with is on the PATH servers get (the doctor's resolver,
 * upstream/command-resolve.ts), and, when it is not, what to install — said before anything is
 * written, so an install never leaves an entry that cannot start.
 */
import type { DocPackage } from './catalog-source.js';
import { runtimeCommand } from './install-inputs.js';
import { resolveCommand } from '../upstream/command-resolve.js';

export interface RuntimeCheck {
  /** The command the entry runs (podman in place of a missing docker). */
  command: string;
  available: boolean;
  /** Where it was found. */
  hint?: string;
  /** "uvx (from uv: https://docs.astral.sh/uv/) is not on PATH", when it is not. */
  missing?: string;
}

const FROM: Record<string, string> = {
  npx: 'Node.js: https://nodejs.org',
  uvx: 'uv: https://docs.astral.sh/uv/',
  docker: 'Docker: https://docs.docker.com/get-docker/',
  podman: 'Podman: https://podman.io',
  dnx: 'the .NET 10 SDK: https://dotnet.microsoft.com/download',
};

export interface RuntimeEnv {
  /** The PATH servers start with (injectable for tests). */
  path(): Promise<string>;
  platform?: NodeJS.Platform;
}

export async function checkRuntime(pkg: DocPackage, env: RuntimeEnv): Promise<RuntimeCheck> {
  const command = runtimeCommand(pkg) ?? 'npx';
  const pathList = await env.path();
  const platform = env.platform ?? process.platform;
  const found = await resolveCommand(command, pathList, platform);
  if (found) return { command, available: true, hint: found };
  // An OCI image runs as well with podman (same `run -i --rm` arguments).
  if (command === 'docker') {
    const podman = await resolveCommand('podman', pathList, platform);
    if (podman) return { command: 'podman', available: true, hint: podman };
    return { command, available: false, missing: `docker (from ${FROM.docker}) or podman (from ${FROM.podman}) is not on PATH` };
  }
  return { command, available: false, missing: `${command} (from ${FROM[command] ?? command}) is not on PATH` };
}
