/**
 * The desktop app itself, launched by Playwright's `_electron` with a temp data dir: the window
 * (sandboxed, the UI through the preload bridge), the tray menu, closing to the tray, a clean
 * quit. Runs where an Electron binary is installed; elsewhere it is skipped and says why — it is
 * never faked. On Linux without a display, run it under `xvfb-run -a npx playwright test e2e/electron`.
 * Where no binary can run, src/main/electron/launch.test.ts runs the same built app under Node with
 * a recording stand-in for Electron's API (start-up order, failures, tray, quit).
 */
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { everythingEntry, REPO_ROOT } from '../fixtures.js';
import { findElectronBinary } from './electron-binary.js';

interface MenuItem {
  label?: string;
  type?: string;
  checked?: boolean;
  enabled?: boolean;
}
type Hooks = { trayMenu(): MenuItem[]; trayIconState(): string | undefined };

const binary = findElectronBinary();
const built = existsSync(path.join(REPO_ROOT, 'dist', 'main', 'electron', 'main.js')) && existsSync(path.join(REPO_ROOT, 'dist', 'preload', 'preload.cjs'));

test.describe('desktop app (Electron)', () => {
  let app: ElectronApplication | undefined;
  let dataDir: string;

  test.beforeEach(async () => {
    if (!binary.ok) {
      // Printed, not only recorded: a skipped desktop test must say why in the run's output.
      console.log(`desktop app e2e skipped: ${binary.reason}`);
      test.skip(true, binary.reason);
      return;
    }
    if (!built) throw new Error('the desktop app is not built: run `npm run build && npm run build:electron` first');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-desktop-e2e-'));
    await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { fx: everythingEntry() }, hub: { port: 0 } }, null, 2));
    app = await electron.launch({
      executablePath: binary.path,
      args: [REPO_ROOT, '--data-dir', dataDir],
      env: { ...process.env, PATCHBAY_E2E: '1', PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'warn', PATCHBAY_UPDATE_FEED: 'off', HOME: dataDir, XDG_CONFIG_HOME: path.join(dataDir, '.config') },
    });
  });

  test.afterEach(async () => {
    if (app) {
      const exited = new Promise((resolve) => app!.process().once('exit', resolve));
      await app.evaluate(({ app: electronApp }) => electronApp.quit()).catch(() => undefined);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (app.process().exitCode === null) app.process().kill('SIGKILL');
    }
    app = undefined;
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('opens the UI in a sandboxed window that talks through the preload bridge', async () => {
    const page = await app!.firstWindow();
    await expect(page).toHaveURL(/^app:\/\/patchbay\/index\.html/);
    await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
    await expect(page.getByText('fx', { exact: true }).first()).toBeVisible();

    const sandbox = await page.evaluate(() => ({
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      bridgeKeys: Object.keys((window as unknown as { patchbay: object }).patchbay),
    }));
    expect(sandbox.require).toBe('undefined');
    expect(sandbox.process).toBe('undefined');
    expect(sandbox.bridgeKeys).toContain('servers.overview');
    expect(sandbox.bridgeKeys).not.toContain('invoke');

    const status = await page.evaluate(() => (window as unknown as { patchbay: Record<string, (i: object) => Promise<{ ok: boolean; value?: { port: number } }>> }).patchbay['hub.status']!({}));
    expect(status.ok).toBe(true);
    expect(status.value!.port).toBeGreaterThan(0);

    // New windows are denied; the page stays on the app.
    await page.evaluate(() => window.open('https://example.com/', '_blank'));
    expect(await app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('shows the hub, the servers and the actions in the tray menu', async () => {
    await app!.firstWindow();
    const labels = async (): Promise<string[]> =>
      app!.evaluate(() => (globalThis as unknown as { __patchbayTestHooks: Hooks }).__patchbayTestHooks.trayMenu().map((i) => i.label ?? `(${i.type})`));
    await expect.poll(labels, { timeout: 20_000 }).toContain('fx — idle');
    const menu = await labels();
    expect(menu.find((l) => l.startsWith('Hub serving on port '))).toBeTruthy();
    expect(menu[0]).toMatch(/^Patchbay \d+\.\d+\.\d+/);
    for (const item of ['Live sessions: 0', 'Open Patchbay', 'Export to Claude Desktop…', 'Copy Hub URL and Token', 'Start at Login', 'Open Logs Folder', 'Check for Updates…', 'Quit Patchbay']) expect(menu).toContain(item);
    expect(await app!.evaluate(() => (globalThis as unknown as { __patchbayTestHooks: Hooks }).__patchbayTestHooks.trayIconState())).toBe('idle');
  });

  test('closing the window keeps the app (and its hub) running in the tray; Quit stops the hub cleanly', async () => {
    await app!.firstWindow();
    const hubFile = path.join(dataDir, 'hub.json');
    await expect.poll(() => existsSync(hubFile), { timeout: 20_000 }).toBe(true);
    await app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.close());
    // Hidden where a tray icon shows; minimized where the desktop has no tray host (docs/desktop.md).
    await expect.poll(() => app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => !w.isVisible() || w.isMinimized()))).toEqual([true]);
    expect(app!.process().exitCode).toBeNull();
    expect(existsSync(hubFile)).toBe(true);

    const exited = new Promise<number | null>((resolve) => app!.process().once('exit', (code) => resolve(code)));
    await app!.evaluate(({ app: electronApp }) => electronApp.quit());
    expect(await exited).toBe(0);
    // The engine stopped cleanly: its discovery file is gone.
    expect(existsSync(hubFile)).toBe(false);
    app = undefined;
  });
});
