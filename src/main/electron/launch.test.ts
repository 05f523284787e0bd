/**
 * The desktop app's launch, proven without an Electron binary (issue 18): the BUILT main process
 * (dist/main/electron/main.js, what `electron .` and the packaged app run) is loaded under plain
 * Node, with `electron` resolved to a recording test double of Electron's main-process API
 * (fake-electron/electron.mjs — it is not Electron; no binary can run on these machines). The
 * engine, the app:// handler, the secret store, the log and the single-instance hand-off are the
 * real ones; the test plays the person (tray clicks, closing the window, dialog buttons) and the
 * window's page (app:// requests, IPC calls).
 *
 * The real-binary tests are e2e/electron (Playwright's `_electron`), run where a binary exists.
 * The harness and the stand-in live in test/desktop/.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../../../test/helpers/cleanup.js';
import { tempDir } from '../../../test/helpers/temp-dir.js';
import { APP_DIR, DesktopApp, LAUNCH_APP, requireDesktopBuild, type FakeCall } from '../../../test/desktop/desktop-harness.js';
import { killQuietly } from '../../../test/helpers/processes.js';
import { keychainCipher } from '../../../test/desktop/fake-electron/keychain.mjs';
import { appCallNames } from '../../shared/api/app-contract.js';
import { IPC_CHANNELS } from '../../shared/api/ipc-channels.js';
import { FileSecretStore } from '../core/index.js';
import { APP_USER_MODEL_ID } from './app-identity.js';
import { DESKTOP_CSP } from './csp.js';

beforeAll(() => requireDesktopBuild());

interface Home {
  home: string;
  dataDir: string;
}

async function freshHome(config: Record<string, unknown> = {}): Promise<Home> {
  const home = await tempDir('patchbay-desktop-launch-');
  const dataDir = path.join(home, 'data');
  await mkdir(dataDir, { recursive: true });
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: {}, hub: { port: 0 }, ...config }, null, 2));
  return { home, dataDir };
}

function launch({ home, dataDir }: Home, extraArgs: string[] = [], env: Record<string, string | undefined> = {}): DesktopApp {
  return new DesktopApp({ args: ['--data-dir', dataDir, ...extraArgs], home, env });
}

const first = (app: DesktopApp, api: string): FakeCall | undefined => app.calls.find((c) => c.api === api || c.api.startsWith(`${api}`));
const seqOf = (app: DesktopApp, predicate: (c: FakeCall) => boolean): number => app.calls.find(predicate)?.seq ?? Number.POSITIVE_INFINITY;
const imageOf = (call: FakeCall): { file: string; width: number } => call.image as { file: string; width: number };

async function hubJson(dataDir: string): Promise<{ pid: number; port: number; url: string } | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dataDir, 'hub.json'), 'utf8')) as { pid: number; port: number; url: string };
  } catch {
    return undefined;
  }
}

async function quit(app: DesktopApp): Promise<number | null> {
  await app.command('tray-click', { label: 'Quit Patchbay' });
  return (await app.exit).code;
}

/** A TCP listener on loopback holding a port (what "the port is taken" means). */
async function holdPort(): Promise<{ port: number; release(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.end('not patchbay'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const release = (): Promise<void> => new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  onCleanup(release);
  return { port: (server.address() as { port: number }).port, release };
}

// Each test starts one to three app processes (each loads the engine): room for a busy machine.
describe('the built desktop app under a stand-in for Electron', { timeout: 120_000 }, () => {
  it('starts: pre-ready calls in order, the tray before the secrets, the engine on 127.0.0.1, the window, app:// with its CSP, the IPC handlers, the tray actions; Quit ends it cleanly', async () => {
    const home = await freshHome();
    const app = launch(home);
    await app.waitForTrayItem('Hub serving on port ');

    // Ready: the tray first, then the window, then (only then) the keychain and the engine.
    const tray = first(app, 'Tray.new')!;
    const windowSeq = seqOf(app, (c) => c.api === 'BrowserWindow.new');
    const keychainSeq = seqOf(app, (c) => c.api.startsWith('safeStorage.'));
    expect(keychainSeq, 'the keychain was asked').toBeLessThan(Number.POSITIVE_INFINITY);
    expect(tray.seq, 'the tray exists before the keychain is asked').toBeLessThan(keychainSeq);
    expect(tray.seq, 'the tray comes before the window').toBeLessThan(windowSeq);
    expect(windowSeq, 'the window comes before the keychain').toBeLessThan(keychainSeq);
    // Before `ready`: the name, the scheme (Electron refuses it later), the paths, the crash
    // reporter, the lock — and no Windows-only call on Linux.
    const preReady = app.calls.filter((c) => !c.ready).map((c) => (c.api === 'app.setPath' ? `app.setPath:${c.name as string}` : c.api));
    expect(preReady).toEqual(['app.setName', 'protocol.registerSchemesAsPrivileged', 'app.setPath:userData', 'app.setPath:crashDumps', 'crashReporter.start', 'app.requestSingleInstanceLock']);
    expect(first(app, 'app.setPath')).toMatchObject({ name: 'userData', value: path.join(home.dataDir, 'electron') });

    expect(imageOf(tray)).toMatchObject({ file: expect.stringMatching(/tray-starting\.png$/), width: 16 });
    const idle = await app.waitForCall((c) => c.api === 'Tray.setImage' && imageOf(c).file.endsWith('tray-idle.png'), 'the idle tray image');
    expect(imageOf(idle).width).toBe(16);
    expect(app.trayLabels()[0]).toBe(`Patchbay ${JSON.parse(await readFile(path.join(APP_DIR, 'package.json'), 'utf8')).version}`);

    // The engine runs on loopback and answers.
    const hub = (await hubJson(home.dataDir))!;
    expect(hub.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${hub.url}/health`)).status).toBe(200);

    // The window: sandboxed, its preload built and present.
    const win = first(app, 'BrowserWindow.new')!.options as { webPreferences: { preload: string; sandbox: boolean; contextIsolation: boolean; nodeIntegration: boolean } };
    expect(win.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(existsSync(win.webPreferences.preload)).toBe(true);
    await app.waitForCall((c) => c.api === 'webContents.did-finish-load' && c.status === 200, 'the UI loaded');

    // Every asset of index.html comes through app:// with its type and the CSP header.
    const index = await app.command<{ status: number; headers: Record<string, string>; body: string }>('scheme-fetch', { url: 'app://patchbay/index.html' });
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toBe(DESKTOP_CSP);
    const assets = [...index.body.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    const types: Record<string, RegExp> = { '.js': /^text\/javascript/, '.css': /^text\/css/, '.svg': /^image\/svg\+xml/ };
    for (const asset of assets) {
      const res = await app.command<{ status: number; headers: Record<string, string> }>('scheme-fetch', { url: `app://patchbay/${asset}` });
      expect(res.status, asset).toBe(200);
      expect(res.headers['content-type'], asset).toMatch(types[path.extname(asset)]!);
      expect(res.headers['content-security-policy'], asset).toBe(DESKTOP_CSP);
    }

    // One IPC handler per contract call plus the event and live-feed channels; a call works.
    const channels = await app.command<string[]>('ipc-channels');
    expect(channels.sort()).toEqual([...appCallNames, IPC_CHANNELS.subscribe, IPC_CHANNELS.unsubscribe, IPC_CHANNELS.liveStart, IPC_CHANNELS.liveStop].sort());
    const status = await app.command<{ ok: boolean; value: { port: number } }>('ipc-invoke', { channel: 'hub.status', arg: {}, frameUrl: 'app://patchbay/index.html' });
    expect(status).toMatchObject({ ok: true, value: { port: hub.port } });
    expect(await app.command('ipc-invoke', { channel: 'hub.status', arg: {}, frameUrl: 'https://evil.example/' })).toMatchObject({ ok: false, code: 'ipc_forbidden' });

    // Downloads the page starts (the inspector's export: a blob: of the page; content: data:), as
    // the stand-in's session reports them: one handler lets them through to Electron's save dialog
    // (no save path set by the app), and refuses a web URL or another web contents' download.
    expect(await app.command('download', { url: 'blob:app://patchbay/8d3c1e52-0b7a-4c11-9a43-2f1d6c1a7b10', filename: 'session.har' })).toEqual({ cancelled: false, savePath: null, handlers: 1 });
    expect(await app.command('download', { url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'image.png' })).toMatchObject({ cancelled: false, savePath: null });
    expect(await app.command('download', { url: 'https://evil.example/payload.exe' })).toMatchObject({ cancelled: true });
    expect(await app.command('download', { url: 'blob:app://patchbay/8d3c1e52-0b7a-4c11-9a43-2f1d6c1a7b10', fromWindow: false })).toMatchObject({ cancelled: true });

    // Tray actions: the export opens on Claude Desktop; the copied URL carries the header; logs.
    let mark = app.calls.at(-1)!.seq;
    await app.command('tray-click', { label: 'Export to Claude Desktop…' });
    await app.waitForCall((c) => c.api === 'webContents.loadURL' && c.url === 'app://patchbay/index.html#/clients/claude-desktop/export', 'the export route', { after: mark });
    await app.command('tray-click', { label: 'Copy Hub URL and Token' });
    const copied = await app.waitForCall((c) => c.api === 'clipboard.writeText', 'the copied connection', { after: mark });
    const token = (await readFile(path.join(home.dataDir, 'hub-token'), 'utf8')).trim();
    expect(JSON.parse(copied.text as string)).toEqual({ type: 'http', url: `${hub.url}/mcp`, headers: { Authorization: `Bearer ${token}` } });
    await app.command('tray-click', { label: 'Open Logs Folder' });
    expect((await app.waitForCall((c) => c.api === 'shell.openPath', 'the logs folder', { after: mark })).path).toBe(path.join(home.dataDir, 'logs'));

    // Quit: the engine stops (hub.json removed), the tray goes, the process exits 0.
    mark = app.calls.at(-1)!.seq;
    expect(await quit(app)).toBe(0);
    expect(app.calls.some((c) => c.seq > mark && c.api === 'Tray.destroy')).toBe(true);
    expect(await hubJson(home.dataDir)).toBeUndefined();
    expect(await readFile(path.join(home.dataDir, 'logs', 'desktop.log'), 'utf8')).toContain('stopped cleanly');
  });

  it("a fresh data dir gets Patchbay's demo server as the app runs it — its executable in Node mode, the bundled script — and that script serves MCP under plain Node", async () => {
    // No config and no hub token yet: what a new user's first launch finds (the data dir itself is created by the app).
    const home = await tempDir('patchbay-desktop-launch-');
    const dataDir = path.join(home, 'data');
    const app = launch({ home, dataDir });
    // The config is written before the engine binds its port. A fresh config has the default port,
    // which this machine may or may not have free: either outcome of the start will do here.
    await app.waitForCall((c) => c.api === 'Tray.setContextMenu' && (c.items as Array<{ label?: string }>).some((i) => /^Hub (serving on port|failed:) /.test(i.label ?? '')), 'the hub started or failed');
    const script = path.join(APP_DIR, 'dist', 'demo', 'patchbay-demo-server.mjs');
    const config = JSON.parse(await readFile(path.join(dataDir, 'config.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    // process.execPath is the app's executable in Electron; under the stand-in it is this Node.
    expect(config).toEqual({ mcpServers: { demo: { command: process.execPath, args: [script], env: { ELECTRON_RUN_AS_NODE: '1' }, demo: true } } });
    expect(await quit(app)).toBe(0);

    // The entry runs as written (Node stands in for the app's executable in Node mode): a real MCP
    // server on stdio, needing nothing but the one file.
    const demo = config.mcpServers.demo!;
    const server = spawn(demo.command, demo.args, { env: { ...process.env, ...demo.env }, cwd: home, stdio: ['pipe', 'pipe', 'pipe'] });
    onCleanup(() => server.exitCode === null && server.signalCode === null && server.pid !== undefined && killQuietly(server.pid));
    const lines = createInterface({ input: server.stdout! });
    const answers = new Map<number, (message: Record<string, unknown>) => void>();
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id === 'number') answers.get(message.id)?.(message);
    });
    const ask = (id: number, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
      const answer = new Promise<Record<string, unknown>>((resolve) => answers.set(id, resolve));
      server.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
      return answer;
    };
    const init = await ask(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'launch-test', version: '1' } });
    expect(init.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'patchbay-demo' } });
    server.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const tools = (await ask(2, 'tools/list')).result as { tools: Array<{ name: string }> };
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.stdin!.end();
    expect(await exited).toBe(0);
  });

  it("on Windows, sets the installer shortcut's AppUserModelID before `ready`, so notifications are the app's", async () => {
    const home = await freshHome();
    // Paths stay this host's: a relative data dir keeps Windows path rules inside the temp dir.
    const app = new DesktopApp({ args: ['--data-dir', 'data'], home: home.home, env: { FAKE_ELECTRON_PLATFORM: 'win32', FAKE_ELECTRON_PACKAGED: '1' } });
    await app.waitForCall((c) => c.api === 'Tray.new', 'the tray');
    const aumid = app.calls.find((c) => c.api === 'app.setAppUserModelId');
    expect(aumid).toMatchObject({ id: APP_USER_MODEL_ID, ready: false });
    expect(aumid!.seq).toBeLessThan(seqOf(app, (c) => c.api === 'app.ready'));
    expect(await quit(app)).toBe(0);
  });

  it('undecryptable secrets: the tray shows the failure and a dialog offers to reset them; a reset starts the hub', async () => {
    const home = await freshHome();
    // Written under another keychain key: what a reset keychain entry looks like to the app.
    const other = await FileSecretStore.open(path.join(home.dataDir, 'secrets.safe.json'), { cipher: keychainCipher('a keychain entry since replaced') });
    await other.set('GITHUB_TOKEN', 'ghp_unreadable_now_0123456789');
    await other.close();

    const app = launch(home);
    const dialog = await app.waitForDialog('Patchbay could not read its secrets');
    expect(dialog.buttons).toEqual(['Retry', 'Reset Secrets…', 'Open Logs Folder', 'Keep Running', 'Quit Patchbay']);
    expect((dialog.call.options as { detail: string }).detail).toContain(path.join(home.dataDir, 'logs', 'desktop.log'));
    // Tray first: it existed before the keychain was asked, and it shows the failure.
    expect(seqOf(app, (c) => c.api === 'Tray.new')).toBeLessThan(seqOf(app, (c) => c.api.startsWith('safeStorage.')));
    await app.waitForCall((c) => c.api === 'Tray.setImage' && imageOf(c).file.endsWith('tray-error.png'), 'the error tray image');
    await app.waitForTrayItem('Hub failed: cannot decrypt secret');
    expect(app.exited).toBe(false);

    await dialog.answer('Reset Secrets…');
    const confirm = await app.waitForDialog('Reset secrets?', dialog.call.seq);
    await confirm.answer('Reset Secrets…');
    await app.waitForTrayItem('Hub serving on port ', confirm.call.seq);
    expect((await readdir(home.dataDir)).filter((n) => n.startsWith('secrets.safe.json.unreadable-') && !n.endsWith('.bak'))).toHaveLength(1);
    expect(await quit(app)).toBe(0);
  });

  it('an unwritable data dir: a dialog says so and names the folder, then the app exits with code 1', async () => {
    const home = await freshHome();
    const blocker = path.join(home.home, 'a-file');
    await writeFile(blocker, 'not a folder');
    const dataDir = path.join(blocker, 'data');
    const app = new DesktopApp({ args: ['--data-dir', dataDir], home: home.home });
    const dialog = await app.waitForDialog('Patchbay cannot use its data folder');
    expect((dialog.call.options as { detail: string }).detail).toContain(dataDir);
    expect(app.exited).toBe(false);
    expect(app.calls.some((c) => c.api === 'app.requestSingleInstanceLock')).toBe(false);
    await dialog.answer('Quit Patchbay');
    expect((await app.exit).code).toBe(1);
  });

  it('a taken port: a dialog and the tray say why; the tray\'s Retry starts the hub once the port is free', async () => {
    const held = await holdPort();
    const home = await freshHome({ hub: { port: held.port } });
    const app = launch(home);
    const dialog = await app.waitForDialog('Patchbay hub failed to start');
    expect((dialog.call.options as { detail: string }).detail).toMatch(new RegExp(`${held.port}`));
    await app.waitForTrayItem('Hub failed: ');
    await app.waitForCall((c) => c.api === 'Tray.setImage' && imageOf(c).file.endsWith('tray-error.png'), 'the error tray image');
    await dialog.answer('Keep Running');
    expect(app.exited).toBe(false);

    await held.release();
    const mark = app.calls.at(-1)!.seq;
    await app.command('tray-click', { label: 'Retry Starting the Hub' });
    await app.waitForTrayItem(`Hub serving on port ${held.port}`, mark);
    expect(await quit(app)).toBe(0);
  });

  it("a relay's launch while the app runs but its hub is down: the launch waits for the answer — the reason and exit 1, or exit 0 once the hub runs", async () => {
    const held = await holdPort();
    const home = await freshHome({ hub: { port: held.port } });
    const running = launch(home);
    // Its failure dialog stays open meanwhile, as when nobody is at the screen.
    await running.waitForTrayItem('Hub failed: ');

    // What the relay runs when it finds no hub: the app, hidden, on the same data dir.
    const failing = launch(home, ['--hidden']);
    const failed = await failing.exit;
    expect(failing.calls.find((c) => c.api === 'app.requestSingleInstanceLock')).toMatchObject({ got: false });
    expect(failed.code).toBe(1);
    expect(failing.output.join('')).toMatch(/the running Patchbay app could not start its hub: .*\b(in use|EADDRINUSE)\b/);

    await held.release();
    const starting = launch(home, ['--hidden']);
    expect((await starting.exit).code).toBe(0);
    // By the time the launch exits 0, the hub the relay looks for is there and answers.
    const hub = (await hubJson(home.dataDir))!;
    expect(hub.port).toBe(held.port);
    expect((await fetch(`${hub.url}/health`)).status).toBe(200);
    expect(running.exited).toBe(false);
    expect(await quit(running)).toBe(0);
  });

  it("Claude Desktop's relay, finding the app running with its hub down, reports the app's reason — not 'the hub exited with code 0'", async () => {
    const held = await holdPort();
    const home = await freshHome({ hub: { port: held.port } });
    const running = launch(home);
    await running.waitForTrayItem('Hub failed: ');

    // The relay as the installed app ships it, run as Node (what ELECTRON_RUN_AS_NODE makes the
    // app's executable); PATCHBAY_APP_ENTRY makes it start this build (under the stand-in) as the app.
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, { HOME: home.home, XDG_CONFIG_HOME: path.join(home.home, '.config'), ELECTRON_RUN_AS_NODE: '1', PATCHBAY_APP_ENTRY: LAUNCH_APP, FAKE_ELECTRON_APP_PATH: APP_DIR, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_UPDATE_FEED: 'off' });
    const relay = spawn(process.execPath, [path.join(APP_DIR, 'dist', 'relay', 'patchbay-relay.mjs'), 'relay', 'fx', '--data-dir', home.dataDir], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    onCleanup(() => relay.exitCode === null && relay.pid !== undefined && killQuietly(relay.pid));
    const lines = createInterface({ input: relay.stdout! });
    const first = new Promise<string>((resolve) => lines.once('line', resolve));
    relay.stdin!.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'launch-test', version: '1' } } }) + '\n');
    const answer = JSON.parse(await first) as { id: number; error?: { message: string } };
    expect(answer.id).toBe(1);
    expect(answer.error?.message).not.toMatch(/exited with code 0/);
    expect(answer.error?.message).toMatch(/could not start its hub: .*\b(in use|EADDRINUSE)\b/);
    relay.stdin!.end();
    expect(running.exited).toBe(false);
    expect(await quit(running)).toBe(0);
  });

  it('closing the window hides it with a one-time hint; where no tray host runs (GNOME), it minimizes instead', async () => {
    for (const [answer, expected] of [
      ['(true,)', 'BrowserWindow.hide'],
      ['(false,)', 'BrowserWindow.minimize'],
    ] as const) {
      const home = await freshHome();
      // The session bus's answer to "is there a StatusNotifierWatcher?", from a stand-in gdbus.
      const bin = path.join(home.home, 'bin');
      await mkdir(bin);
      await writeFile(path.join(bin, 'gdbus'), `#!/bin/sh\necho '${answer}'\n`, { mode: 0o755 });
      const app = launch(home, [], { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` });
      await app.waitForTrayItem('Hub serving on port ');
      await app.waitForCall((c) => c.api === 'webContents.did-finish-load', 'the UI loaded');
      const isHint = (c: FakeCall): boolean => c.api === 'Notification.show' && c.title === 'Patchbay is still running';
      let mark = app.calls.at(-1)!.seq;
      await app.command('window-close');
      await app.waitForCall((c) => c.api === expected, expected, { after: mark });
      const hint = await app.waitForCall(isHint, 'the one-time hint', { after: mark });
      if (expected === 'BrowserWindow.minimize') expect(hint.body).toMatch(/no tray icons/);
      // Again: the window goes the same way, without a second hint. (The app decides that in the
      // same turn as the close; a round trip on the same channel afterwards has seen any record.)
      await app.command('windows').then(() => undefined);
      mark = app.calls.at(-1)!.seq;
      await app.command('tray-click', { label: 'Open Patchbay' });
      await app.waitForCall((c) => c.api === 'BrowserWindow.focus', 'the window shown again', { after: mark });
      mark = app.calls.at(-1)!.seq;
      await app.command('window-close');
      await app.waitForCall((c) => c.api === expected, expected, { after: mark });
      await app.command('windows');
      expect(app.calls.filter(isHint)).toHaveLength(1);
      expect(app.calls.some((c) => c.api === 'BrowserWindow.destroy')).toBe(false);
      expect(await quit(app)).toBe(0);
    }
  });

  it('update check: a newer release in the feed gives a notification and a tray item that open its page; nothing is downloaded', async () => {
    const requests: string[] = [];
    const releasePage = 'https://github.com/mcp-patchbay/patchbay/releases/tag/v99.0.0';
    const feed = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ tag_name: 'v99.0.0', html_url: releasePage, draft: false, prerelease: false, assets: [{ browser_download_url: 'https://example.invalid/Patchbay.dmg' }] }));
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise<void>((resolve) => feed.close(() => resolve())));
    const feedUrl = `http://127.0.0.1:${(feed.address() as { port: number }).port}/repos/mcp-patchbay/patchbay/releases/latest`;

    const home = await freshHome();
    const app = launch(home, [], { PATCHBAY_UPDATE_FEED: feedUrl });
    const notice = await app.waitForCall((c) => c.api === 'Notification.show' && c.title === 'Patchbay 99.0.0 is available', 'the update notification');
    await app.waitForTrayItem('Update Available: Patchbay 99.0.0…');
    let mark = app.calls.at(-1)!.seq;
    await app.command('tray-click', { label: 'Update Available: Patchbay 99.0.0…' });
    expect((await app.waitForCall((c) => c.api === 'shell.openExternal', 'the release page', { after: mark })).url).toBe(releasePage);
    mark = app.calls.at(-1)!.seq;
    await app.command('notification-click', { index: notice.index });
    expect((await app.waitForCall((c) => c.api === 'shell.openExternal', 'the release page again', { after: mark })).url).toBe(releasePage);

    // Asked for: the answer is a dialog, whatever it is.
    await app.command('tray-click', { label: 'Check for Updates…' });
    const asked = await app.waitForDialog('Check for Updates');
    expect(asked.buttons).toEqual(['Open Release Page', 'Later']);
    await asked.answer('Later');

    expect(requests).toEqual(['GET /repos/mcp-patchbay/patchbay/releases/latest', 'GET /repos/mcp-patchbay/patchbay/releases/latest']);
    expect(app.calls.filter((c) => c.api === 'net.fetch').map((c) => c.url)).toEqual([feedUrl, feedUrl]);
    expect(await quit(app)).toBe(0);
  });
});
