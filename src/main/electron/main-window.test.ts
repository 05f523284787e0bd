/** The window's life: shown after the Dock icon (macOS), closed to the tray or minimized, created minimized. */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { createLogger } from '../core/index.js';
import { ExternalUrls } from './external-urls.js';
import { MainWindow, type MainWindowDeps } from './main-window.js';
import type { ClosePolicy } from './tray-host.js';

/** A BrowserWindow stand-in that records what is done to it. */
function fakeWindow(log: string[]): BrowserWindow {
  const contents = Object.assign(new EventEmitter(), { id: 7, isLoading: () => false, setWindowOpenHandler: () => undefined, loadURL: async (url: string) => void log.push(`load ${url}`), reload: () => undefined });
  let visible = false;
  let minimized = false;
  const win = Object.assign(new EventEmitter(), {
    webContents: contents,
    loadURL: async (url: string) => void log.push(`load ${url}`),
    show: () => ((visible = true), log.push('show')),
    showInactive: () => ((visible = true), log.push('showInactive')),
    hide: () => ((visible = false), log.push('hide')),
    focus: () => void log.push('focus'),
    minimize: () => ((minimized = true), log.push('minimize')),
    restore: () => ((minimized = false), log.push('restore')),
    isMinimized: () => minimized,
    isVisible: () => visible,
    isDestroyed: () => false,
    destroy: () => void log.push('destroy'),
  });
  return win as unknown as BrowserWindow;
}

function setup(policy: ClosePolicy, extra: Partial<MainWindowDeps> = {}): { window: MainWindow; log: string[]; created: BrowserWindow[]; closes: ClosePolicy[] } {
  const log: string[] = [];
  const created: BrowserWindow[] = [];
  const closes: ClosePolicy[] = [];
  const logger = createLogger('test');
  const window = new MainWindow({
    createWindow: (_options: BrowserWindowConstructorOptions) => {
      const win = fakeWindow(log);
      created.push(win);
      return win;
    },
    options: {},
    externalUrls: new ExternalUrls(async () => undefined, logger),
    isQuitting: () => false,
    closePolicy: () => policy,
    onClosedToBackground: (how) => closes.push(how),
    logger,
    ...extra,
  });
  return { window, log, created, closes };
}

const close = (win: BrowserWindow): boolean => {
  let prevented = false;
  (win as unknown as EventEmitter).emit('close', { preventDefault: () => (prevented = true) });
  return prevented;
};

describe('main window', () => {
  it('macOS: the Dock icon comes first, the window is shown and focused after it', async () => {
    let release!: () => void;
    const { window, log } = setup('hide', { beforeShow: () => new Promise<void>((resolve) => (log.push('dock'), (release = resolve))) });
    window.show();
    expect(log).toEqual(['dock']);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['dock', 'load app://patchbay/index.html', 'show', 'focus']);
  });

  it('closing hides it (tray) or minimizes it (no tray host), never destroys it, and says so', () => {
    for (const policy of ['hide', 'minimize'] as const) {
      const { window, log, created, closes } = setup(policy);
      window.show('clients/claude-desktop/export');
      expect(log[0]).toBe('load app://patchbay/index.html#/clients/claude-desktop/export');
      expect(close(created[0]!)).toBe(true);
      expect(log.at(-1)).toBe(policy);
      expect(log).not.toContain('destroy');
      expect(closes).toEqual([policy]);
    }
  });

  it('a hidden start without a tray host leaves a minimized, unfocused window; showing it restores it', () => {
    const { window, log, created } = setup('minimize');
    window.showMinimized();
    (created[0] as unknown as EventEmitter).emit('ready-to-show');
    expect(log).toEqual(['load app://patchbay/index.html', 'showInactive', 'minimize']);
    window.show();
    expect(log.slice(3)).toEqual(['restore', 'focus']);
  });
});
