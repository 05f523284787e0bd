/**
 * "Start at login" (the tray's checkbox and the Settings screen's switch). A start at login is a
 * hidden start (tray only), so each platform's mechanism passes `--hidden`:
 * - Windows: Electron's login items (they take arguments);
 * - macOS: a per-user LaunchAgent (`~/Library/LaunchAgents/dev.patchbay.desktop.plist`). Login
 *   items cannot pass arguments there, and telling a login start apart by `wasOpenedAtLogin` alone
 *   is unreliable with macOS 13's login-item service; a login item an earlier version set is
 *   still recognised and replaced by the agent on the next change;
 * - Linux: an XDG autostart entry (`~/.config/autostart/patchbay.desktop`).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoginItemSettings, Settings } from 'electron';
import type { StartAtLogin } from '../core/index.js';
import { errCode } from '../core/index.js';
import { APP_USER_MODEL_ID } from './app-identity.js';
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
  if (inputs.platform === 'darwin') return macLaunchAgent(app, inputs);
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

export const MAC_AGENT_LABEL = APP_USER_MODEL_ID;

export function macLaunchAgentFile(homedir: string): string {
  return path.posix.join(homedir, 'Library', 'LaunchAgents', `${MAC_AGENT_LABEL}.plist`);
}

/** A LaunchAgent that runs the app hidden once per login, in the person's graphical session only. */
export function macLaunchAgentPlist(command: string, args: readonly string[]): string {
  const strings = [command, ...args, HIDDEN_FLAG].map((a) => `    <string>${xml(a)}</string>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${MAC_AGENT_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${strings}
  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>LimitLoadToSessionType</key>
  <string>Aqua</string>
  <key>AssociatedBundleIdentifiers</key>
  <array>
    <string>${MAC_AGENT_LABEL}</string>
  </array>
</dict>
</plist>
`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function macLaunchAgent(app: LoginItemsApp, inputs: StartAtLoginInputs): StartAtLogin {
  const file = macLaunchAgentFile(inputs.homedir);
  const agentExists = async (): Promise<boolean> => {
    try {
      return (await readFile(file, 'utf8')).includes(`<string>${MAC_AGENT_LABEL}</string>`);
    } catch (err) {
      if (errCode(err) === 'ENOENT') return false;
      throw err;
    }
  };
  return {
    get: async () => (await agentExists()) || app.getLoginItemSettings().openAtLogin,
    set: async (enabled) => {
      // A login item from an earlier version would start the app a second time, not hidden.
      if (app.getLoginItemSettings().openAtLogin) app.setLoginItemSettings({ openAtLogin: false });
      if (!enabled) return rm(file, { force: true });
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, macLaunchAgentPlist(inputs.command, inputs.args), { mode: 0o644 });
    },
  };
}
