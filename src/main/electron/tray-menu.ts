/**
 * The tray menu as a pure function of the tray state: Electron's `Menu.buildFromTemplate` takes
 * what this returns, and tray-menu.test.ts snapshots it for a set of states.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { TrayServer, TrayState } from './tray-state.js';

export interface TrayActions {
  openWindow(): void;
  /** Opens Claude Desktop's export on the Clients screen: the diff first, written on confirmation. */
  exportToClaudeDesktop(): void;
  /** Copies the hub's URL with the Authorization header a client needs (an `mcpServers` entry). */
  copyHubConnection(): void;
  setServerEnabled(id: string, enabled: boolean): void;
  setStartAtLogin(enabled: boolean): void;
  retryHub(): void;
  openLogsFolder(): void;
  checkForUpdates(): void;
  /** Opens the release page of the update found (in the browser; nothing is installed). */
  openUpdate(): void;
  quit(): void;
}

const MAX_ERROR_CHARS = 60;

export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [
    { label: `Patchbay ${state.version}`, enabled: false },
    { label: hubLine(state), enabled: false },
  ];
  if (state.hub.state === 'error' || state.hub.state === 'stopped') items.push({ label: 'Retry Starting the Hub', click: () => actions.retryHub() });
  if (state.configProblems > 0) {
    items.push({ label: `config.json has ${plural(state.configProblems, 'problem')} (last good config in use)`, enabled: false });
  }
  items.push({ type: 'separator' });

  if (state.hub.state === 'running') {
    if (state.servers.length === 0) items.push({ label: 'No servers yet — add one in Patchbay', enabled: false });
    else {
      items.push({ label: 'Servers', enabled: false });
      for (const server of state.servers) items.push(serverItem(server, actions));
    }
    items.push({ type: 'separator' }, { label: `Live sessions: ${state.sessions}`, enabled: false }, { type: 'separator' });
  }

  items.push(
    { label: 'Open Patchbay', click: () => actions.openWindow() },
    { label: 'Export to Claude Desktop…', click: () => actions.exportToClaudeDesktop() },
    { label: 'Copy Hub URL and Token', enabled: state.hub.state === 'running', click: () => actions.copyHubConnection() },
    { type: 'separator' },
  );
  if (state.startAtLogin !== undefined) {
    const enabled = state.startAtLogin;
    items.push({ label: 'Start at Login', type: 'checkbox', checked: enabled, click: () => actions.setStartAtLogin(!enabled) });
  }
  items.push({ label: 'Open Logs Folder', click: () => actions.openLogsFolder() });
  if (state.update) items.push({ label: `Update Available: Patchbay ${state.update.version}…`, click: () => actions.openUpdate() });
  items.push({ label: 'Check for Updates…', click: () => actions.checkForUpdates() }, { type: 'separator' }, { label: 'Quit Patchbay', click: () => actions.quit() });
  return items;
}

function hubLine(state: TrayState): string {
  switch (state.hub.state) {
    case 'running':
      return `Hub serving on port ${state.hub.port}`;
    case 'starting':
      return 'Hub starting…';
    case 'stopped':
      return 'Hub stopped';
    case 'error':
      return `Hub failed: ${truncate(state.hub.message)}`;
  }
}

/** One checkbox per server: the label says its state, the check is its enable toggle. */
function serverItem(server: TrayServer, actions: TrayActions): MenuItemConstructorOptions {
  const enabled = server.enabled;
  return {
    label: `${server.id} — ${serverStateText(server)}`,
    type: 'checkbox',
    checked: enabled,
    ...(server.error !== undefined ? { toolTip: server.error } : {}),
    click: () => actions.setServerEnabled(server.id, !enabled),
  };
}

function serverStateText(server: TrayServer): string {
  switch (server.state) {
    case 'disabled':
      return 'disabled';
    case 'idle':
      return 'idle';
    case 'running':
      return server.sessions > 0 ? `running, ${plural(server.sessions, 'session')}` : 'running';
    case 'error':
      return server.error ? `failing: ${truncate(server.error)}` : 'failing';
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function truncate(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > MAX_ERROR_CHARS ? `${line.slice(0, MAX_ERROR_CHARS - 1)}…` : line;
}
