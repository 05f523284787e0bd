import { describe, expect, it } from 'vitest';
import { loadClients } from '../core/index.js';
import { appLaunchCommand, desktopRelayLauncher, relayScriptLocation, type RelayLauncherInputs } from './relay-launcher.js';
import { parseRelayArgs } from './relay/relay-entry.js';
import { demoScriptLocation, desktopDemoServer } from './demo-server-entry.js';

const CASES: Array<{ name: string; inputs: RelayLauncherInputs; command: string; script: string }> = [
  {
    name: 'macOS app bundle',
    inputs: { platform: 'darwin', isPackaged: true, execPath: '/Applications/Patchbay.app/Contents/MacOS/Patchbay', resourcesPath: '/Applications/Patchbay.app/Contents/Resources', appPath: '/Applications/Patchbay.app/Contents/Resources/app.asar', dataDir: '/Users/me/Library/Application Support/Patchbay' },
    command: '/Applications/Patchbay.app/Contents/MacOS/Patchbay',
    script: '/Applications/Patchbay.app/Contents/Resources/relay/patchbay-relay.mjs',
  },
  {
    name: 'Windows (NSIS, per user)',
    inputs: { platform: 'win32', isPackaged: true, execPath: 'C:\\Users\\Me\\AppData\\Local\\Programs\\Patchbay\\Patchbay.exe', resourcesPath: 'C:\\Users\\Me\\AppData\\Local\\Programs\\Patchbay\\resources', appPath: 'C:\\Users\\Me\\AppData\\Local\\Programs\\Patchbay\\resources\\app.asar', dataDir: 'C:\\Users\\Me\\AppData\\Roaming\\Patchbay' },
    command: 'C:\\Users\\Me\\AppData\\Local\\Programs\\Patchbay\\Patchbay.exe',
    script: 'C:\\Users\\Me\\AppData\\Local\\Programs\\Patchbay\\resources\\relay\\patchbay-relay.mjs',
  },
  {
    name: 'Linux deb',
    inputs: { platform: 'linux', isPackaged: true, execPath: '/opt/Patchbay/patchbay-desktop', resourcesPath: '/opt/Patchbay/resources', appPath: '/opt/Patchbay/resources/app.asar', dataDir: '/home/me/.config/patchbay' },
    command: '/opt/Patchbay/patchbay-desktop',
    script: '/opt/Patchbay/resources/relay/patchbay-relay.mjs',
  },
  {
    name: 'Linux AppImage (mounted at a new path every run)',
    inputs: { platform: 'linux', isPackaged: true, execPath: '/tmp/.mount_PatchbAbC123/patchbay-desktop', resourcesPath: '/tmp/.mount_PatchbAbC123/resources', appPath: '/tmp/.mount_PatchbAbC123/resources/app.asar', dataDir: '/home/me/.config/patchbay', appImage: '/home/me/Apps/Patchbay-0.1.0.AppImage' },
    command: '/home/me/Apps/Patchbay-0.1.0.AppImage',
    script: '/home/me/.config/patchbay/relay/patchbay-relay.mjs',
  },
];

describe('the desktop relay launcher', () => {
  for (const c of CASES) {
    it(`runs the app's own executable in Node mode with the bundled script: ${c.name}`, async () => {
      const { recognise, relayEntry } = await loadClients();
      const launcher = desktopRelayLauncher(c.inputs);
      expect(launcher).toEqual({ command: c.command, args: [c.script], env: { ELECTRON_RUN_AS_NODE: '1' } });
      // What the export writes into claude_desktop_config.json, and that it is known as Patchbay's again.
      const entry = relayEntry(launcher, 'github');
      expect(entry).toEqual({ kind: 'stdio', command: c.command, args: [c.script, 'relay', 'github'], env: { ELECTRON_RUN_AS_NODE: '1' } });
      expect(recognise(entry, { port: 39517, token: 't' })).toEqual({ serverId: 'github', kind: 'stdio' });
    });
  }

  it('copies the script out of an AppImage mount only', () => {
    expect(relayScriptLocation(CASES[3]!.inputs)).toEqual({ script: CASES[3]!.script, copyFrom: '/tmp/.mount_PatchbAbC123/resources/relay/patchbay-relay.mjs' });
    for (const c of CASES.slice(0, 3)) expect(relayScriptLocation(c.inputs)).toEqual({ script: c.script });
  });

  it('in development names the app dir so the relay can start the app', () => {
    const launcher = desktopRelayLauncher({ platform: 'linux', isPackaged: false, execPath: '/repo/node_modules/electron/dist/electron', resourcesPath: '/repo/node_modules/electron/dist/resources', appPath: '/repo', dataDir: '/home/me/.config/patchbay' });
    expect(launcher).toEqual({ command: '/repo/node_modules/electron/dist/electron', args: ['/repo/dist/relay/patchbay-relay.mjs'], env: { ELECTRON_RUN_AS_NODE: '1', PATCHBAY_APP_ENTRY: '/repo' } });
  });

  it('starts the app hidden when no hub runs (the AppImage file, not its mount)', () => {
    expect(appLaunchCommand({}, '/Applications/Patchbay.app/Contents/MacOS/Patchbay')).toEqual({ command: '/Applications/Patchbay.app/Contents/MacOS/Patchbay', args: ['--hidden'] });
    expect(appLaunchCommand({ PATCHBAY_APP_ENTRY: '/repo' }, '/repo/electron')).toEqual({ command: '/repo/electron', args: ['/repo', '--hidden'] });
    expect(appLaunchCommand({ APPIMAGE: '/home/me/P.AppImage' }, '/tmp/.mount_x/patchbay-desktop')).toEqual({ command: '/home/me/P.AppImage', args: ['--hidden'] });
  });

  it("parses the relay script's arguments", () => {
    expect(parseRelayArgs(['relay', 'github'])).toEqual({ ok: true, value: { server: 'github', noStart: false } });
    expect(parseRelayArgs(['relay', 'fx', '--data-dir', '/d', '--no-start'])).toEqual({ ok: true, value: { server: 'fx', dataDir: '/d', noStart: true } });
    expect(parseRelayArgs(['relay', '--url', 'https://x'])).toMatchObject({ ok: false, message: expect.stringContaining('patchbay CLI') });
    // No SERVER: the default profile (/mcp); @name: a profile.
    expect(parseRelayArgs(['relay'])).toEqual({ ok: true, value: { server: '', noStart: false } });
    expect(parseRelayArgs(['relay', '@work'])).toEqual({ ok: true, value: { server: '@work', noStart: false } });
    expect(parseRelayArgs(['relay', '@'])).toMatchObject({ ok: false });
    expect(parseRelayArgs(['relay', '../etc'])).toMatchObject({ ok: false });
    expect(parseRelayArgs(['serve'])).toMatchObject({ ok: false });
  });
});

describe("the desktop app's demo server entry (a fresh data dir's config)", () => {
  for (const c of CASES) {
    it(`is the app's executable in Node mode with the bundled demo script beside the relay's: ${c.name}`, () => {
      const script = c.script.replace(/([\\/])relay\1patchbay-relay\.mjs$/, '$1demo$1patchbay-demo-server.mjs');
      expect(script).not.toBe(c.script);
      expect(desktopDemoServer(c.inputs)).toEqual({ command: c.command, args: [script], env: { ELECTRON_RUN_AS_NODE: '1' } });
    });
  }

  it('is copied out of an AppImage mount only, and points at the build in development', () => {
    expect(demoScriptLocation(CASES[3]!.inputs)).toEqual({ script: '/home/me/.config/patchbay/demo/patchbay-demo-server.mjs', copyFrom: '/tmp/.mount_PatchbAbC123/resources/demo/patchbay-demo-server.mjs' });
    for (const c of CASES.slice(0, 3)) expect(demoScriptLocation(c.inputs).copyFrom).toBeUndefined();
    const dev = desktopDemoServer({ platform: 'linux', isPackaged: false, execPath: '/repo/node_modules/electron/dist/electron', resourcesPath: '/repo/node_modules/electron/dist/resources', appPath: '/repo', dataDir: '/home/me/.config/patchbay' });
    // No PATCHBAY_APP_ENTRY: unlike the relay, the demo server never starts the app.
    expect(dev).toEqual({ command: '/repo/node_modules/electron/dist/electron', args: ['/repo/dist/demo/patchbay-demo-server.mjs'], env: { ELECTRON_RUN_AS_NODE: '1' } });
  });
});
