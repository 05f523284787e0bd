/**
 * The one place BrowserWindow options are made. Every security setting is spelled out (even where
 * it is Electron's default) and pinned by window-options.test.ts, so a change is deliberate.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowOptionsInput {
  preload: string;
  platform: NodeJS.Platform;
  /** Window icon for Windows and Linux; macOS takes the bundle's icon. */
  icon?: string;
  /** Developer tools: in development only, never in the packaged app. */
  devTools: boolean;
}

export function mainWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'Patchbay',
    // Shown on 'ready-to-show' (no white flash), or never in the hidden start.
    show: false,
    autoHideMenuBar: true,
    ...(input.platform !== 'darwin' && input.icon ? { icon: input.icon } : {}),
    webPreferences: {
      preload: input.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: input.devTools,
    },
  };
}
