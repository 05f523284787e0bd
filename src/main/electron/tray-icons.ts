/**
 * Which tray image shows a state. macOS takes monochrome template images (the name ends in
 * `Template`, so the menu bar tints them for light and dark mode; `@2x` is picked up by
 * itself); Windows and Linux take coloured ones. scripts/make-icons.mjs draws all of them.
 */
import path from 'node:path';
import type { TrayIconState } from './tray-state.js';

const TEMPLATE: Record<TrayIconState, string> = {
  starting: 'trayStartingTemplate.png',
  stopped: 'trayStoppedTemplate.png',
  idle: 'trayIdleTemplate.png',
  serving: 'trayServingTemplate.png',
  error: 'trayErrorTemplate.png',
};

const COLOUR: Record<TrayIconState, string> = {
  starting: 'tray-starting.png',
  stopped: 'tray-stopped.png',
  idle: 'tray-idle.png',
  serving: 'tray-serving.png',
  error: 'tray-error.png',
};

export function trayIconFile(trayDir: string, state: TrayIconState, platform: NodeJS.Platform): string {
  return path.join(trayDir, platform === 'darwin' ? TEMPLATE[state] : COLOUR[state]);
}

/** Every tray image the app may load (the packaging test checks they exist). */
export function allTrayIconNames(): string[] {
  return [...Object.values(TEMPLATE), ...Object.values(COLOUR)];
}
