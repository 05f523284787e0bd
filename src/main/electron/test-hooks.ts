/**
 * What the Playwright `_electron` test reads from the main process (with PATCHBAY_E2E=1 only):
 * the tray menu as last built, as plain data. Nothing is exposed in a normal run.
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface TrayMenuSnapshotItem {
  label?: string;
  type?: string;
  checked?: boolean;
  enabled?: boolean;
}

export interface PatchbayTestHooks {
  trayMenu(): TrayMenuSnapshotItem[];
  trayIconState(): string | undefined;
}

/** The menu template as data (no click handlers), as the tests and snapshots compare it. */
export function describeMenu(template: readonly MenuItemConstructorOptions[]): TrayMenuSnapshotItem[] {
  return template.map((item) => {
    const out: TrayMenuSnapshotItem = {};
    if (item.label !== undefined) out.label = item.label;
    if (item.type !== undefined) out.type = item.type;
    if (item.checked !== undefined) out.checked = item.checked;
    if (item.enabled !== undefined) out.enabled = item.enabled;
    return out;
  });
}

export function installTestHooks(env: Readonly<Record<string, string | undefined>>, hooks: PatchbayTestHooks): void {
  if (env.PATCHBAY_E2E !== '1') return;
  (globalThis as { __patchbayTestHooks?: PatchbayTestHooks }).__patchbayTestHooks = hooks;
}
