/**
 * The one window: made on first use from mainWindowOptions, kept alive while the app runs.
 * Closing it hides it (the app lives on in the tray); only Quit ends the app.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { Logger } from '../core/index.js';
import { APP_ENTRY_URL } from './app-origin.js';
import type { ExternalUrls } from './external-urls.js';
import { guardWebContents } from './navigation-guard.js';

export interface MainWindowDeps {
  /** `(options) => new BrowserWindow(options)`; injected so tests need no Electron. */
  createWindow(options: BrowserWindowConstructorOptions): BrowserWindow;
  options: BrowserWindowConstructorOptions;
  externalUrls: ExternalUrls;
  /** True once Quit was chosen: then a close really closes. */
  isQuitting(): boolean;
  /** The window was hidden or shown (macOS shows the Dock icon only while it is visible). */
  onVisibility?(visible: boolean): void;
  logger: Logger;
}

export class MainWindow {
  private win: BrowserWindow | undefined;

  constructor(private readonly deps: MainWindowDeps) {}

  /** Shows (creating it if needed) and focuses the window; `route` is a hash route such as `clients`. */
  show(route?: string): void {
    const win = this.win ?? this.create(route);
    if (route !== undefined && this.win === win && !win.webContents.isLoading()) {
      void win.webContents.loadURL(`${APP_ENTRY_URL}#/${route}`);
    }
    if (win.isMinimized()) win.restore();
    if (!win.isVisible() && !win.webContents.isLoading()) win.show();
    win.focus();
    this.deps.onVisibility?.(true);
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

  private create(route: string | undefined): BrowserWindow {
    const win = this.deps.createWindow(this.deps.options);
    this.win = win;
    guardWebContents(win.webContents, this.deps.externalUrls, this.deps.logger);
    win.once('ready-to-show', () => {
      win.show();
      win.focus();
    });
    win.on('close', (event) => {
      if (this.deps.isQuitting()) return;
      event.preventDefault();
      win.hide();
      this.deps.onVisibility?.(false);
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
