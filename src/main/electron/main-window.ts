/**
 * The one window: made on first use from mainWindowOptions, kept alive while the app runs.
 * Closing it hides it (the app lives on in the tray) — or minimizes it where the desktop shows no
 * tray icons (tray-host.ts), so the app is never left running with no way back. Only Quit ends it.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { Logger } from '../core/index.js';
import { APP_ENTRY_URL } from './app-origin.js';
import type { ExternalUrls } from './external-urls.js';
import { guardWebContents } from './navigation-guard.js';
import type { ClosePolicy } from './tray-host.js';

export interface MainWindowDeps {
  /** `(options) => new BrowserWindow(options)`; injected so tests need no Electron. */
  createWindow(options: BrowserWindowConstructorOptions): BrowserWindow;
  options: BrowserWindowConstructorOptions;
  externalUrls: ExternalUrls;
  /** True once Quit was chosen: then a close really closes. */
  isQuitting(): boolean;
  /** What a close does while the app runs on: hide (a tray icon exists) or minimize (none). */
  closePolicy(): ClosePolicy;
  /**
   * Runs before the window is shown and focused; the window waits for it (macOS shows the Dock
   * icon here: a window focused before that can open behind other apps).
   */
  beforeShow?(): Promise<void> | void;
  /** The person closed the window and the app runs on (hidden or minimized). */
  onClosedToBackground?(how: ClosePolicy): void;
  logger: Logger;
}

export class MainWindow {
  private win: BrowserWindow | undefined;

  constructor(private readonly deps: MainWindowDeps) {}

  /** Shows (creating it if needed) and focuses the window; `route` is a hash route such as `clients`. */
  show(route?: string): void {
    const existed = this.win !== undefined;
    const before = this.deps.beforeShow?.();
    const present = (): void => {
      const win = this.win ?? this.create(route, 'focused');
      if (win.isDestroyed()) return;
      if (route !== undefined && existed && !win.webContents.isLoading()) void win.webContents.loadURL(`${APP_ENTRY_URL}#/${route}`);
      if (win.isMinimized()) win.restore();
      if (!win.isVisible() && !win.webContents.isLoading()) win.show();
      win.focus();
    };
    if (before) void before.then(present, present);
    else present();
  }

  /** A hidden start where no tray icon can appear: the window exists, minimized, never focused. */
  showMinimized(): void {
    if (!this.win) this.create(undefined, 'minimized');
  }

  /** The window's page, for the IPC sender check (undefined before the window exists). */
  get webContentsId(): number | undefined {
    return this.win && !this.win.isDestroyed() ? this.win.webContents.id : undefined;
  }

  get visible(): boolean {
    return this.win !== undefined && !this.win.isDestroyed() && this.win.isVisible();
  }

  /** Starts the page over (after an engine restart its event cursors mean nothing). */
  reload(): void {
    if (this.win && !this.win.isDestroyed()) this.win.webContents.reload();
  }

  destroy(): void {
    if (this.win && !this.win.isDestroyed()) this.win.destroy();
    this.win = undefined;
  }

  private create(route: string | undefined, how: 'focused' | 'minimized'): BrowserWindow {
    const win = this.deps.createWindow(this.deps.options);
    this.win = win;
    guardWebContents(win.webContents, this.deps.externalUrls, this.deps.logger);
    win.once('ready-to-show', () => {
      if (how === 'minimized') {
        win.showInactive();
        win.minimize();
        return;
      }
      win.show();
      win.focus();
    });
    win.on('close', (event) => {
      if (this.deps.isQuitting()) return;
      event.preventDefault();
      const policy = this.deps.closePolicy();
      if (policy === 'minimize') win.minimize();
      else win.hide();
      this.deps.onClosedToBackground?.(policy);
    });
    win.on('closed', () => {
      if (this.win === win) this.win = undefined;
    });
    win.webContents.on('render-process-gone', (_event, details) => {
      this.deps.logger.error(`the window's renderer ended (${details.reason}, exit code ${details.exitCode}); reloading it`);
      if (!win.isDestroyed() && details.reason !== 'clean-exit') win.webContents.reload();
    });
    void win.loadURL(route !== undefined ? `${APP_ENTRY_URL}#/${route}` : APP_ENTRY_URL).catch((err: Error) => {
      this.deps.logger.error(`the window could not load the UI: ${err.message}`);
    });
    return win;
  }
}
