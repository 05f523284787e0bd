/**
 * The machine a client config lives on: platform, home directory and environment. Injected rather
 * than read from `process`, so every platform's paths (Windows' MSIX one included) are computed
 * and tested on any machine.
 */
import os from 'node:os';
import path from 'node:path';

export interface ClientHost {
  platform: NodeJS.Platform;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Where a path of this host is on the disk Patchbay runs on. Identity in real use; a test for
   * another platform maps e.g. `C:\\Users\\ada\\…` into a temp dir, so Windows paths (the MSIX one
   * included) are exercised for real on Linux.
   */
  fsPath?: (hostPath: string) => string;
}

/** The on-disk path of a host path. */
export function onDisk(host: ClientHost, p: string): string {
  return host.fsPath ? host.fsPath(p) : p;
}

export function currentHost(): ClientHost {
  return { platform: process.platform, home: os.homedir(), env: process.env };
}

/** Path rules of the host's platform (win32 rules even when this runs on Linux in a test). */
export function hostPath(host: ClientHost): path.PlatformPath {
  return host.platform === 'win32' ? path.win32 : path.posix;
}

export function homePath(host: ClientHost, ...parts: string[]): string {
  return hostPath(host).join(host.home, ...parts);
}

/** `%APPDATA%` (Roaming) on Windows. */
export function appData(host: ClientHost): string {
  return nonEmpty(host.env.APPDATA) ?? homePath(host, 'AppData', 'Roaming');
}

/** `%LOCALAPPDATA%` on Windows. */
export function localAppData(host: ClientHost): string {
  return nonEmpty(host.env.LOCALAPPDATA) ?? homePath(host, 'AppData', 'Local');
}

/** `$XDG_CONFIG_HOME` when absolute, else `~/.config` (the XDG rule; used on macOS by some CLIs too). */
export function xdgConfig(host: ClientHost): string {
  const xdg = nonEmpty(host.env.XDG_CONFIG_HOME);
  return xdg && hostPath(host).isAbsolute(xdg) ? xdg : homePath(host, '.config');
}

/**
 * Where desktop apps keep per-user data: `~/Library/Application Support` (macOS), `%APPDATA%`
 * (Windows), `$XDG_CONFIG_HOME` or `~/.config` (Linux), as Electron's `appData` path does.
 */
export function userConfigDir(host: ClientHost): string {
  if (host.platform === 'darwin') return homePath(host, 'Library', 'Application Support');
  if (host.platform === 'win32') return appData(host);
  return xdgConfig(host);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
