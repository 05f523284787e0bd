/** The small policies of the shell: external URLs, downloads, notifications, start at login, quitting, the engine host. */
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi, type Mock } from 'vitest';
import type { ApiEvent } from '../../shared/api/contract.js';
import type { RunningEngine } from '../core/index.js';
import { createLogger } from '../core/index.js';
import { DESKTOP_CSP } from './csp.js';
import { downloadAllowed, guardDownloads } from './downloads.js';
import { EngineHost } from './engine-host.js';
import { ExternalUrls } from './external-urls.js';
import { installGracefulQuit } from './graceful-quit.js';
import { guardWebContents } from './navigation-guard.js';
import { NotificationPolicy } from './notifications.js';
import { OneTimeHints } from './desktop-hints.js';
import { hubConnectionText } from './hub-connection.js';
import { closeHintNotice } from './notifications.js';
import { createStartAtLogin, linuxAutostartEntry, linuxAutostartFile, macLaunchAgentFile } from './start-at-login.js';

const logger = createLogger('test');

describe('external URLs', () => {
  it('opens only http(s) URLs the app produced, and not twice in a row', async () => {
    let now = 1000;
    const opened: string[] = [];
    const urls = new ExternalUrls(async (u) => void opened.push(u), logger, () => now);
    const signIn = 'https://auth.example.com/authorize?state=abc';
    expect(urls.openFromRenderer(signIn)).toBe('refused');
    await urls.openProduced(signIn);
    expect(opened).toEqual([signIn]);
    // The UI's window.open of the same page right after the engine opened it: not a second tab.
    expect(urls.openFromRenderer(signIn)).toBe('duplicate');
    now += 10_000;
    expect(urls.openFromRenderer(signIn)).toBe('opened');
    urls.produced('https://auth.example.com/other');
    expect(urls.openFromRenderer('https://auth.example.com/other')).toBe('opened');
    await expect(urls.openProduced('file:///etc/passwd')).rejects.toThrow(/http/);
    urls.produced('javascript:alert(1)');
    expect(urls.openFromRenderer('javascript:alert(1)')).toBe('refused');
    expect(opened).toHaveLength(3);
  });
});

describe('downloads (the inspector export, content links) under the navigation guard and the CSP', () => {
  // What the renderer makes: sessions-commands.ts clicks an <a download> on a blob: of the page;
  // content-view.tsx renders a data: link with `download`.
  const exportUrl = 'blob:app://patchbay/8d3c1e52-0b7a-4c11-9a43-2f1d6c1a7b10';
  const contentUrl = 'data:application/pdf;base64,JVBERi0xLjcK';

  it('allows the page its own blob: URLs and inline data: only', () => {
    expect(downloadAllowed(exportUrl)).toBe(true);
    expect(downloadAllowed(contentUrl)).toBe(true);
    expect(downloadAllowed('DATA:text/plain,hi')).toBe(true);
    for (const url of ['blob:https://evil.example/8d3c1e52', 'blob:null/8d3c1e52', 'blob:app://other/8d3c1e52', 'blob:app://x@patchbay/1', 'https://evil.example/payload.exe', 'http://127.0.0.1:39517/api', 'file:///etc/passwd', 'app://patchbay/index.html', 'javascript:alert(1)', '']) {
      expect(downloadAllowed(url), url).toBe(false);
    }
  });

  it("lets the window's downloads through to Electron's save dialog, and cancels the rest", () => {
    const session = new EventEmitter();
    const warnings: string[] = [];
    const log = { ...logger, info: () => undefined, warn: (m: string) => void warnings.push(m) } as unknown as typeof logger;
    guardDownloads(session as never, { windowContentsId: () => 7, logger: log });
    expect(session.listenerCount('will-download')).toBe(1);
    const download = (url: string, contents: { id: number } | undefined): { cancelled: boolean; savePath: string | undefined } => {
      let cancelled = false;
      let savePath: string | undefined;
      const item = { getURL: () => url, getFilename: () => 'session.har', getMimeType: () => 'application/json', setSavePath: (p: string) => void (savePath = p), cancel: () => void (cancelled = true) };
      session.emit('will-download', { preventDefault: () => void (cancelled = true) }, item, contents);
      return { cancelled, savePath };
    };
    // Allowed, with no save path set: Electron asks where to save (nothing written without a choice).
    expect(download(exportUrl, { id: 7 })).toEqual({ cancelled: false, savePath: undefined });
    expect(download(contentUrl, { id: 7 })).toEqual({ cancelled: false, savePath: undefined });
    expect(download('https://evil.example/payload.exe', { id: 7 })).toMatchObject({ cancelled: true });
    expect(download(exportUrl, { id: 8 })).toMatchObject({ cancelled: true });
    expect(download(exportUrl, undefined)).toMatchObject({ cancelled: true });
    expect(warnings).toHaveLength(3);
    // The refusal names the scheme, never the URL (a data: URL is content).
    expect(warnings.join('\n')).not.toContain('evil.example');
  });

  it('navigating the window to those URLs stays refused, and the CSP has no directive that blocks a download', () => {
    const contents = Object.assign(new EventEmitter(), { windowOpenHandler: undefined as undefined | ((d: { url: string }) => { action: string }), setWindowOpenHandler(h: (d: { url: string }) => { action: string }) { this.windowOpenHandler = h; } });
    const opened: string[] = [];
    guardWebContents(contents as never, new ExternalUrls(async (u) => void opened.push(u), logger), logger);
    for (const url of [exportUrl, contentUrl]) {
      let prevented = false;
      contents.emit('will-navigate', { url, preventDefault: () => void (prevented = true) });
      expect(prevented, `navigation to ${url}`).toBe(true);
      let redirected = false;
      contents.emit('will-redirect', { url, preventDefault: () => void (redirected = true) });
      expect(redirected, `redirect to ${url}`).toBe(true);
      expect(contents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual([]);
    // A `sandbox` directive would block downloads unless it allowed them; `navigate-to` is not a
    // directive browsers keep. Fetching stays off: the export's content comes through IPC.
    const directives = DESKTOP_CSP.split(';').map((d) => d.trim().split(/\s+/)[0]);
    expect(directives).not.toContain('sandbox');
    expect(directives).not.toContain('navigate-to');
    expect(DESKTOP_CSP).toContain("connect-src 'none'");
  });
});

describe('notifications', () => {
  const status = (state: string, message?: string): ApiEvent =>
    ({ channel: 'servers.status', cursor: 1, payload: { id: 'fs', state, sessions: 0, children: 0, ...(message ? { lastError: { message, at: 't', stage: 'start' } } : {}) } }) as ApiEvent;

  it('announces a failing server once per failure, and a needed sign-in', () => {
    const policy = new NotificationPolicy();
    expect(policy.noticeFor(status('idle'))).toBeUndefined();
    expect(policy.noticeFor(status('error', 'spawn npx ENOENT'))).toEqual({ title: "Server 'fs' failed", body: 'spawn npx ENOENT', onClick: { kind: 'window', route: 'servers/fs' } });
    expect(policy.noticeFor(status('error', 'spawn npx ENOENT'))).toBeUndefined();
    policy.noticeFor(status('running'));
    expect(policy.noticeFor(status('error', 'again'))).toBeDefined();
    const login = { channel: 'oauth.loginNeeded', cursor: 2, payload: { server: 'linear', authorizationUrl: 'https://auth.example/a', reason: 'r' } } as ApiEvent;
    expect(policy.noticeFor(login)).toMatchObject({ title: "Sign-in needed for 'linear'", onClick: { kind: 'browser', url: 'https://auth.example/a' } });
    expect(policy.noticeFor({ channel: 'config.changed', cursor: 3, payload: { problems: [] } } as ApiEvent)).toBeUndefined();
  });
});

describe('start at login', () => {
  it('uses login items on macOS and Windows, always as a hidden start', async () => {
    const set = vi.fn();
    const app = { getLoginItemSettings: vi.fn(() => ({ openAtLogin: true }) as never), setLoginItemSettings: set };
    const item = createStartAtLogin(app, { platform: 'win32', env: {}, homedir: 'C:\\Users\\me', command: 'C:\\P\\Patchbay.exe', args: [] });
    expect(await item.get()).toBe(true);
    await item.set(false);
    expect(set).toHaveBeenCalledWith({ openAtLogin: false, path: 'C:\\P\\Patchbay.exe', args: ['--hidden'] });
  });

  it('writes an XDG autostart entry on Linux', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'patchbay-autostart-'));
    try {
      const env = { XDG_CONFIG_HOME: path.join(home, 'cfg') };
      const item = createStartAtLogin({ getLoginItemSettings: () => ({}) as never, setLoginItemSettings: () => undefined }, { platform: 'linux', env, homedir: home, command: '/home/me/Apps/Patchbay 0.1.AppImage', args: [] });
      expect(await item.get()).toBe(false);
      await item.set(true);
      expect(await item.get()).toBe(true);
      const text = await readFile(linuxAutostartFile(env, home), 'utf8');
      expect(text).toContain('Exec="/home/me/Apps/Patchbay 0.1.AppImage" --hidden');
      await item.set(false);
      expect(await item.get()).toBe(false);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
    expect(linuxAutostartFile({}, '/home/me')).toBe('/home/me/.config/autostart/patchbay.desktop');
    expect(linuxAutostartEntry('/opt/Patchbay/patchbay-desktop', ['/repo $x'])).toContain('Exec=/opt/Patchbay/patchbay-desktop "/repo \\$x" --hidden');
  });
});

describe('start at login on macOS', () => {
  it('writes a LaunchAgent that starts the app hidden, and replaces a login item of an earlier version', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'patchbay-agent-'));
    try {
      const set = vi.fn();
      let legacy = true;
      const app = { getLoginItemSettings: () => ({ openAtLogin: legacy }) as never, setLoginItemSettings: (s: { openAtLogin: boolean }) => (set(s), (legacy = s.openAtLogin)) };
      const item = createStartAtLogin(app, { platform: 'darwin', env: {}, homedir: home, command: '/Applications/Patchbay & Co.app/Contents/MacOS/Patchbay', args: [] });
      expect(await item.get()).toBe(true);
      await item.set(true);
      expect(set).toHaveBeenCalledWith({ openAtLogin: false });
      const plist = await readFile(macLaunchAgentFile(home), 'utf8');
      expect(plist).toContain('<string>/Applications/Patchbay &amp; Co.app/Contents/MacOS/Patchbay</string>\n    <string>--hidden</string>');
      expect(plist).toContain('<key>RunAtLoad</key>\n  <true/>');
      expect(plist).toContain('<string>dev.patchbay.desktop</string>');
      expect(await item.get()).toBe(true);
      await item.set(false);
      expect(await item.get()).toBe(false);
      expect(macLaunchAgentFile('/Users/me')).toBe('/Users/me/Library/LaunchAgents/dev.patchbay.desktop.plist');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('small desktop pieces', () => {
  it('copies the hub URL with the header a client needs, as an mcpServers entry', () => {
    expect(JSON.parse(hubConnectionText('http://127.0.0.1:5', 'tok'))).toEqual({ type: 'http', url: 'http://127.0.0.1:5/mcp', headers: { Authorization: 'Bearer tok' } });
    expect(JSON.parse(hubConnectionText('http://127.0.0.1:5', undefined))).toEqual({ type: 'http', url: 'http://127.0.0.1:5/mcp' });
  });

  it('gives a hint once per data dir, remembered across starts', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-hints-'));
    try {
      const hints = new OneTimeHints(dir);
      expect(await hints.once('closed')).toBe(true);
      expect(await hints.once('closed')).toBe(false);
      expect(await new OneTimeHints(dir).once('closed')).toBe(false);
      expect(await new OneTimeHints(dir).once('other')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(closeHintNotice('darwin', 'hide').body).toContain('menu bar');
    expect(closeHintNotice('linux', 'minimize').body).toContain('no tray icons');
  });
});

describe('graceful quit', () => {
  type FakeApp = EventEmitter & { quit: Mock<() => void>; exit: Mock<(code?: number) => void>; tryQuit(): boolean };
  function fakeApp(): FakeApp {
    const app = new EventEmitter() as FakeApp;
    app.quit = vi.fn<() => void>();
    app.exit = vi.fn<(code?: number) => void>();
    app.tryQuit = () => {
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => (prevented = true) });
      return !prevented;
    };
    return app;
  }

  it('holds the quit until the engine stopped, then quits for real', async () => {
    const app = fakeApp();
    let release!: () => void;
    const stop = vi.fn(() => new Promise<void>((r) => (release = r)));
    const quit = installGracefulQuit({ app, stop, logger, signals: new EventEmitter() });
    expect(quit.quitting()).toBe(false);
    expect(app.tryQuit()).toBe(false);
    expect(quit.quitting()).toBe(true);
    expect(app.tryQuit()).toBe(false);
    expect(stop).toHaveBeenCalledTimes(1);
    release();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(app.tryQuit()).toBe(true);
  });

  it('quits after the deadline when the engine hangs, and on SIGTERM', async () => {
    const app = fakeApp();
    const signals = new EventEmitter();
    installGracefulQuit({ app, stop: () => new Promise(() => undefined), logger, timeoutMs: 20, signals });
    signals.emit('SIGTERM');
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(app.tryQuit()).toBe(false);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(2));
  });
});

describe('engine host', () => {
  it('keeps a start failure as its state, retries on request, forwards events across restarts, stops once', async () => {
    const listeners: Array<(e: ApiEvent) => void> = [];
    const close = vi.fn(async () => undefined);
    const engine = { url: 'http://127.0.0.1:5', port: 5, close, api: { subscribe: (l: (e: ApiEvent) => void) => (listeners.push(l), { unsubscribe: () => listeners.splice(listeners.indexOf(l), 1), complete: true }) } } as unknown as RunningEngine;
    const start = vi.fn().mockRejectedValueOnce(new Error('port 5 is in use')).mockResolvedValue(engine);
    const host = new EngineHost({ start, logger });
    const states: string[] = [];
    host.onState((s) => states.push(s.state));
    const events: ApiEvent[] = [];
    host.onEvent((e) => events.push(e));
    await host.start();
    expect(host.state).toEqual({ state: 'error', message: 'port 5 is in use' });
    await Promise.all([host.start(), host.start()]);
    expect(start).toHaveBeenCalledTimes(2);
    expect(host.state).toEqual({ state: 'running', url: 'http://127.0.0.1:5', port: 5 });
    listeners[0]!({ channel: 'config.changed', cursor: 1, payload: { problems: [] } } as ApiEvent);
    expect(events).toHaveLength(1);
    await Promise.all([host.stop(), host.stop()]);
    expect(close).toHaveBeenCalledTimes(1);
    expect(listeners).toHaveLength(0);
    expect(states).toEqual(['starting', 'error', 'starting', 'running', 'stopped']);
  });
});
