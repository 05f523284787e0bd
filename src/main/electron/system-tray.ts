/**
 * The tray icon and its menu, rebuilt from the engine's state whenever it changes (debounced:
 * status events come in bursts). Electron's Tray, Menu and nativeImage are injected, so the
 * wiring is testable without Electron (Signal Desktop's `createTrayInstance` seam).
 */
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { Logger } from '../core/index.js';
import { trayIconFile } from './tray-icons.js';
import { trayMenuTemplate, type TrayActions } from './tray-menu.js';
import { trayIconState, type TrayIconState, type TrayState } from './tray-state.js';

export interface SystemTrayDeps {
  createTray(image: NativeImage): Tray;
  buildMenu(template: MenuItemConstructorOptions[]): Menu;
  loadImage(file: string): NativeImage;
  trayDir: string;
  platform: NodeJS.Platform;
  actions: TrayActions;
  logger: Logger;
  /** Called with every template the tray shows (the e2e test hook reads the last one). */
  onTemplate?(template: MenuItemConstructorOptions[]): void;
}

export class SystemTray {
  private tray: Tray | undefined;
  private icon: TrayIconState | undefined;

  constructor(private readonly deps: SystemTrayDeps) {}

  show(state: TrayState): void {
    const iconState = trayIconState(state);
    if (!this.tray) {
      this.tray = this.deps.createTray(this.image(iconState));
      this.icon = iconState;
      // Linux (AppIndicator) opens the menu on click by itself; elsewhere a click opens it too.
      if (this.deps.platform !== 'linux') this.tray.on('click', () => this.tray?.popUpContextMenu());
    } else if (iconState !== this.icon) {
      this.tray.setImage(this.image(iconState));
      this.icon = iconState;
    }
    this.tray.setToolTip(tooltip(state));
    const template = trayMenuTemplate(state, this.deps.actions);
    this.deps.onTemplate?.(template);
    this.tray.setContextMenu(this.deps.buildMenu(template));
  }

  destroy(): void {
    this.tray?.destroy();
    this.tray = undefined;
  }

  private image(state: TrayIconState): NativeImage {
    const image = this.deps.loadImage(trayIconFile(this.deps.trayDir, state, this.deps.platform));
    if (image.isEmpty()) this.deps.logger.warn(`tray image for '${state}' is missing or empty`);
    return image;
  }
}

export function tooltip(state: TrayState): string {
  switch (state.hub.state) {
    case 'running':
      return `Patchbay — serving on 127.0.0.1:${state.hub.port}, ${state.sessions} live session${state.sessions === 1 ? '' : 's'}`;
    case 'error':
      return 'Patchbay — the hub failed to start';
    case 'starting':
      return 'Patchbay — starting';
    case 'stopped':
      return 'Patchbay — stopped';
  }
}
