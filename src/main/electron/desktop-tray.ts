/**
 * The tray as the desktop runs it: shown first thing at start-up (state "starting", before secrets
 * or the engine are touched), then redrawn from the engine's state whenever it changes —
 * debounced, since status events come in bursts.
 */
import type { Menu, MenuItemConstructorOptions, NativeImage, Tray } from 'electron';
import type { Logger, StartAtLogin } from '../core/index.js';
import type { EngineHost } from './engine-host.js';
import { SystemTray } from './system-tray.js';
import { describeMenu, type TrayMenuSnapshotItem } from './test-hooks.js';
import type { TrayActions } from './tray-menu.js';
import { readTrayState, trayIconState, type TrayIconState, type TrayState } from './tray-state.js';

export interface DesktopTrayDeps {
  createTray(image: NativeImage): Tray;
  buildMenu(template: MenuItemConstructorOptions[]): Menu;
  loadImage(file: string): NativeImage;
  trayDir: string;
  platform: NodeJS.Platform;
  version: string;
  host: EngineHost;
  startAtLogin: StartAtLogin;
  /** The newer release the update check found, if any. */
  update(): { version: string } | undefined;
  actions: TrayActions;
  logger: Logger;
}

const DEBOUNCE_MS = 150;

export class DesktopTray {
  private readonly tray: SystemTray;
  private template: MenuItemConstructorOptions[] = [];
  private state: TrayState;
  private timer: NodeJS.Timeout | undefined;
  private destroyed = false;

  constructor(private readonly deps: DesktopTrayDeps) {
    this.tray = new SystemTray({
      createTray: deps.createTray,
      buildMenu: deps.buildMenu,
      loadImage: deps.loadImage,
      trayDir: deps.trayDir,
      platform: deps.platform,
      logger: deps.logger,
      actions: deps.actions,
      onTemplate: (template) => (this.template = template),
    });
    // Before the first engine start (which follows at once), the app is starting.
    const hub = deps.host.state.state === 'stopped' ? { state: 'starting' as const } : deps.host.state;
    this.state = { version: deps.version, hub, sessions: 0, servers: [], configProblems: 0 };
    this.tray.show(this.state);
  }

  /** Redraws soon from the engine's current state. */
  refresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.redraw().catch((err: Error) => this.deps.logger.warn(`tray update failed: ${err.message}`)), DEBOUNCE_MS);
  }

  get menu(): TrayMenuSnapshotItem[] {
    return describeMenu(this.template);
  }

  get iconState(): TrayIconState {
    return trayIconState(this.state);
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.timer);
    this.tray.destroy();
  }

  private async redraw(): Promise<void> {
    const login = await this.deps.startAtLogin.get().catch(() => undefined);
    const state = await readTrayState(this.deps.host.state, this.deps.host.current, { version: this.deps.version, startAtLogin: login, update: this.deps.update() });
    if (this.destroyed) return;
    this.state = state;
    this.tray.show(state);
  }
}
