/**
 * The engine options of the desktop app: the core engine with the desktop's injected pieces.
 * Nothing here reads Electron; main.ts supplies the values.
 */
import type { StartAtLogin } from '../core/index.js';
import type { RelayLauncher } from '../core/index.js';
import type { EngineOptions } from '../core/index.js';
import type { SecretStore } from '../core/index.js';
import type { StdioServerConfig } from '../../shared/config-schema.js';
import type { ExternalUrls } from './external-urls.js';

export interface DesktopEngineInputs {
  dataDir: string;
  secrets: SecretStore;
  externalUrls: ExternalUrls;
  startAtLogin: StartAtLogin;
  launcher: RelayLauncher;
  /** The built renderer, also served to browsers at /ui by the hub. */
  uiRoot: string;
  /** The demo server a fresh data dir starts with: the app's executable in Node mode (demo-server-entry.ts). */
  demoServer: StdioServerConfig;
}

export function desktopEngineOptions(inputs: DesktopEngineInputs): EngineOptions {
  return {
    dataDir: inputs.dataDir,
    // Loopback only and the token always on: the desktop app has no "--no-auth".
    host: '127.0.0.1',
    auth: true,
    secrets: inputs.secrets,
    // OAuth sign-in pages: recorded as produced by the app, then opened in the default browser.
    openUrl: (url) => inputs.externalUrls.openProduced(url),
    startAtLogin: inputs.startAtLogin,
    clients: { launcher: inputs.launcher },
    uiRoot: inputs.uiRoot,
    // Core's default runs dist/main/demo with this Node; inside Electron it gives none.
    demoServer: inputs.demoServer,
  };
}
