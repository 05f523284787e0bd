/**
 * "Start at login" (the tray's checkbox and the Settings screen's switch). macOS and Windows use
 * Electron's login items; Linux has none, so an XDG autostart entry is written
 * (`~/.config/autostart/patchbay.desktop`). A start at login is a hidden start: tray only.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoginItemSettings, Settings } from 'electron';
import type { StartAtLogin } from '../core/index.js';
import { errCode } from '../core/index.js';
import { HIDDEN_FLAG } from './launch-args.js';

export interface LoginItemsApp {
  getLoginItemSettings(options?: { args?: string[] }): LoginItemSettings;
  setLoginItemSettings(settings: Settings): void;
}

export interface StartAtLoginInputs {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  homedir: string;
  /** How the app is started: the executable (or the AppImage), plus the app dir in development. */
  command: string;
  args: string[];
}

export function createStartAtLogin(app: LoginItemsApp, inputs: StartAtLoginInputs): StartAtLogin {
  if (inputs.platform === 'linux') return linuxAutostart(inputs);
  const args = [...inputs.args, HIDDEN_FLAG];
  return {
    get: async () => app.getLoginItemSettings({ args }).openAtLogin,
    set: async (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, path: inputs.command, args }),
  };
}

export function linuxAutostartFile(env: Readonly<Record<string, string | undefined>>, homedir: string): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(homedir, '.config');
  return path.posix.join(base, 'autostart', 'patchbay.desktop');
}

/** A desktop entry that starts the app hidden; arguments quoted per the Desktop Entry spec. */
export function linuxAutostartEntry(command: string, args: readonly string[]): string {
  const exec = [command, ...args, HIDDEN_FLAG].map(quoteExecArg).join(' ');
  return ['[Desktop Entry]', 'Type=Application', 'Name=Patchbay', 'Comment=MCP hub in the tray', `Exec=${exec}`, 'X-GNOME-Autostart-enabled=true', 'Terminal=false', ''].join('\n');
}

function quoteExecArg(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `"${arg.replace(/[\\"`$]/g, (c) => `\\${c}`)}"`;
}

function linuxAutostart(inputs: StartAtLoginInputs): StartAtLogin {
  const file = linuxAutostartFile(inputs.env, inputs.homedir);
  return {
    get: async () => {
      try {
        return (await readFile(file, 'utf8')).includes('Name=Patchbay');
      } catch (err) {
        if (errCode(err) === 'ENOENT') return false;
        throw err;
      }
    },
    set: async (enabled) => {
      if (!enabled) return rm(file, { force: true });
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, linuxAutostartEntry(inputs.command, inputs.args), { mode: 0o644 });
    },
  };
}
