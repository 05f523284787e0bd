/**
 * Resolving a command the way a process launcher does, against a given PATH: the shell's, the
 * hub's, or the minimal one a desktop-launched app gets (launchd on macOS gives apps
 * /usr/bin:/bin:/usr/sbin:/sbin, without Homebrew, nvm or ~/.local/bin).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

/** The PATH a desktop-launched app sees by default. */
export function desktopPath(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string {
  if (platform === 'darwin') return '/usr/bin:/bin:/usr/sbin:/sbin';
  // Windows apps get the user's and the system's PATH from the registry, which is what a console gets too.
  if (platform === 'win32') return env.PATH ?? env.Path ?? '';
  return '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
}

export function isBareCommand(command: string): boolean {
  return !command.includes('/') && !command.includes('\\');
}

async function isExecutableFile(file: string, platform: NodeJS.Platform, fsPath: (p: string) => string): Promise<boolean> {
  try {
    if (!(await stat(fsPath(file))).isFile()) return false;
    if (platform !== 'win32') await access(fsPath(file), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute file `command` runs with this PATH, or undefined when it does not resolve. */
export async function resolveCommand(
  command: string,
  pathList: string | undefined,
  platform: NodeJS.Platform,
  options: { pathExt?: string; fsPath?: (p: string) => string } = {},
): Promise<string | undefined> {
  const pathExt = options.pathExt ?? '.COM;.EXE;.BAT;.CMD';
  const fsPath = options.fsPath ?? ((p: string) => p);
  const p = platform === 'win32' ? path.win32 : path.posix;
  const exts = platform === 'win32' ? ['', ...pathExt.split(';').filter(Boolean)] : [''];
  if (!isBareCommand(command)) {
    for (const ext of exts) if (await isExecutableFile(command + ext, platform, fsPath)) return command + ext;
    return undefined;
  }
  for (const dir of (pathList ?? '').split(platform === 'win32' ? ';' : ':')) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = p.join(dir, command + ext);
      if (await isExecutableFile(candidate, platform, fsPath)) return candidate;
    }
  }
  return undefined;
}

const RUNTIME_HINTS: Array<[RegExp, string]> = [
  [/^(npx|npm|node|corepack|pnpm|yarn)(\.cmd|\.exe)?$/i, 'Install Node.js (https://nodejs.org), which brings node and npx'],
  [/^(uvx|uv)(\.exe)?$/i, 'Install uv (https://docs.astral.sh/uv/getting-started/installation/), which brings uvx'],
  [/^(python3?|pip3?|pipx)(\.exe)?$/i, 'Install Python 3 (https://www.python.org/downloads/)'],
  [/^docker(\.exe)?$/i, 'Install Docker Desktop (https://docs.docker.com/get-docker/) and start it'],
  [/^(bun|bunx)(\.exe)?$/i, 'Install Bun (https://bun.sh)'],
  [/^deno(\.exe)?$/i, 'Install Deno (https://deno.com)'],
];

/** How to get a missing command, for the runtimes MCP servers usually need. */
export function installHint(command: string): string {
  const name = command.split(/[\\/]/).pop() ?? command;
  for (const [pattern, hint] of RUNTIME_HINTS) if (pattern.test(name)) return hint;
  return `Install '${name}' or write its absolute path in the entry`;
}
