/**
 * The environment a stdio server is started with (PROTOCOL P31): a small inherited set, the
 * user's login-shell PATH, then the server's configured env. Inheriting everything would leak the
 * hub's own environment (tokens of other tools, for one) into every server.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

const POSIX_INHERITED = [
  'HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ',
  'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME',
];
const WINDOWS_INHERITED = [
  'APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES',
  'ProgramData', 'ComSpec',
];
/** Network settings a server needs to reach the internet the way the user's shell does. */
const NETWORK_INHERITED = [
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
];

export function inheritedEnv(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Record<string, string> {
  const names = [...(platform === 'win32' ? WINDOWS_INHERITED : POSIX_INHERITED), ...NETWORK_INHERITED];
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    // Exported shell functions look like "() { ...": a security risk, and never useful here.
    if (value !== undefined && !value.startsWith('()')) out[name] = value;
  }
  return out;
}

/** Joins PATH lists, first occurrence wins, empty entries dropped. */
export function mergePathLists(lists: Array<string | undefined>, delimiter = path.delimiter): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of lists) {
    for (const entry of (list ?? '').split(delimiter)) {
      if (entry && !seen.has(entry)) {
        seen.add(entry);
        out.push(entry);
      }
    }
  }
  return out.join(delimiter);
}

const MARK = '__PATCHBAY_PATH__';

/**
 * The PATH of the user's interactive login shell. A desktop-launched app gets a bare PATH
 * (launchd's on macOS), where `npx`, `uvx` or an nvm-installed `node` do not resolve; the shell's
 * rc files are what put them there. Undefined on Windows, or when the shell fails or is slow.
 */
export function readLoginShellPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, timeoutMs = 3000): Promise<string | undefined> {
  if (platform === 'win32') return Promise.resolve(undefined);
  const shell = env.SHELL || '/bin/sh';
  return new Promise((resolve) => {
    execFile(
      shell,
      ['-ilc', `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`],
      { timeout: timeoutMs, env: { ...env, TERM: 'dumb' }, encoding: 'utf8' },
      (err, stdout) => {
        const match = typeof stdout === 'string' ? stdout.split(MARK) : [];
        resolve(!err && match.length >= 3 && match[1] ? match[1] : undefined);
      },
    );
  });
}

let loginPathPromise: Promise<string | undefined> | undefined;

/** Cached for the life of the process: the shell is asked once. */
export function loginShellPath(): Promise<string | undefined> {
  loginPathPromise ??= process.env.PATCHBAY_NO_LOGIN_SHELL === '1' ? Promise.resolve(undefined) : readLoginShellPath(process.env, process.platform);
  return loginPathPromise;
}

export function buildChildEnv(options: {
  base: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  loginPath: string | undefined;
  configured: Record<string, string> | undefined;
}): Record<string, string> {
  const env = inheritedEnv(options.base, options.platform);
  env.PATH = mergePathLists([options.loginPath, options.base.PATH], options.platform === 'win32' ? ';' : ':');
  return { ...env, ...(options.configured ?? {}) };
}
