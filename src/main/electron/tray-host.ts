/**
 * Whether the desktop shows tray icons at all. Electron's Linux tray is a StatusNotifierItem: it
 * appears only where a host (the `org.kde.StatusNotifierWatcher` D-Bus name) runs — KDE, Xfce,
 * Cinnamon, Ubuntu's GNOME (its AppIndicator extension) do; plain GNOME does not, and Electron
 * cannot tell. Without a host the app must not hide its only window: closing it minimizes instead,
 * and hidden starts keep a minimized window (docs/desktop.md says how to get a tray on GNOME).
 */
import { execFile } from 'node:child_process';

export type TrayHost = 'present' | 'absent' | 'unknown';

/** How the window behaves when closed: hidden (reached again from the tray) or minimized (no tray). */
export type ClosePolicy = 'hide' | 'minimize';

/** Runs a command and gives its stdout (injected in tests). */
export type RunCommand = (command: string, args: string[]) => Promise<string>;

const WATCHER = 'org.kde.StatusNotifierWatcher';

export async function detectTrayHost(platform: NodeJS.Platform, run: RunCommand = runCommand): Promise<TrayHost> {
  if (platform !== 'linux') return 'present';
  try {
    const out = await run('gdbus', ['call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path', '/org/freedesktop/DBus', '--method', 'org.freedesktop.DBus.NameHasOwner', WATCHER]);
    if (/\(true,?\)/.test(out)) return 'present';
    if (/\(false,?\)/.test(out)) return 'absent';
    return 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Without a known host, GNOME sessions are assumed to have none (their default); others to have one. */
export function closePolicy(platform: NodeJS.Platform, host: TrayHost, env: Readonly<Record<string, string | undefined>>): ClosePolicy {
  if (platform !== 'linux') return 'hide';
  if (host === 'present') return 'hide';
  if (host === 'absent') return 'minimize';
  return /gnome/i.test(env.XDG_CURRENT_DESKTOP ?? '') ? 'minimize' : 'hide';
}

function runCommand(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 2000, windowsHide: true }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}
