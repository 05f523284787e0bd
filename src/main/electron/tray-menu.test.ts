import { describe, expect, it, vi } from 'vitest';
import { describeMenu } from './test-hooks.js';
import { trayMenuTemplate, type TrayActions } from './tray-menu.js';
import { trayIconState, type TrayState } from './tray-state.js';
import { trayIconFile } from './tray-icons.js';

type Mocked = { [K in keyof TrayActions]: TrayActions[K] & ReturnType<typeof vi.fn> };

function actions(): Mocked {
  const fn = <T extends (...args: never[]) => void>(): T & ReturnType<typeof vi.fn> => vi.fn() as unknown as T & ReturnType<typeof vi.fn>;
  return {
    openWindow: fn(),
    exportToClaudeDesktop: fn(),
    copyHubConnection: fn(),
    setServerEnabled: fn(),
    setStartAtLogin: fn(),
    retryHub: fn(),
    openLogsFolder: fn(),
    checkForUpdates: fn(),
    openUpdate: fn(),
    quit: fn(),
  };
}

const running = { state: 'running', url: 'http://127.0.0.1:39517', port: 39517 } as const;

const STATES: Record<string, TrayState> = {
  starting: { version: '1.2.3', hub: { state: 'starting' }, sessions: 0, servers: [], configProblems: 0, startAtLogin: false },
  'running, no servers': { version: '1.2.3', hub: running, sessions: 0, servers: [], configProblems: 0, startAtLogin: false },
  'running, serving': {
    version: '1.2.3',
    hub: running,
    sessions: 3,
    configProblems: 0,
    startAtLogin: true,
    servers: [
      { id: 'github', state: 'running', sessions: 2, enabled: true },
      { id: 'fs', state: 'running', sessions: 1, enabled: true },
      { id: 'notes', state: 'idle', sessions: 0, enabled: true },
      { id: 'old', state: 'disabled', sessions: 0, enabled: false },
    ],
  },
  'running, a server failing': {
    version: '1.2.3',
    hub: running,
    sessions: 0,
    configProblems: 1,
    servers: [{ id: 'broken', state: 'error', sessions: 0, enabled: true, error: "server 'broken' exited with code 1: Error: Cannot find module '/nowhere/index.js' (and a lot more text after that)" }],
  },
  'hub failed': { version: '1.2.3', hub: { state: 'error', message: 'port 39517 is in use by another program' }, sessions: 0, servers: [], configProblems: 0, startAtLogin: false },
  stopped: { version: '1.2.3', hub: { state: 'stopped' }, sessions: 0, servers: [], configProblems: 0 },
  'running, an update available': { version: '1.2.3', hub: running, sessions: 0, servers: [], configProblems: 0, startAtLogin: false, update: { version: '1.3.0' } },
};

describe('tray menu', () => {
  for (const [name, state] of Object.entries(STATES)) {
    it(`matches the template for: ${name}`, () => {
      expect(describeMenu(trayMenuTemplate(state, actions()))).toMatchSnapshot();
    });
  }

  it('wires every item to its action', () => {
    const a = actions();
    const items = trayMenuTemplate(STATES['running, serving']!, a);
    const click = (label: string): void => {
      const item = items.find((i) => i.label === label || i.label?.startsWith(label));
      if (!item?.click) throw new Error(`no clickable item '${label}'`);
      (item.click as () => void)();
    };
    click('Open Patchbay');
    click('Export to Claude Desktop…');
    click('Copy Hub URL and Token');
    click('github —');
    click('old —');
    click('Start at Login');
    click('Open Logs Folder');
    click('Check for Updates…');
    click('Quit Patchbay');
    expect(a.openWindow).toHaveBeenCalledTimes(1);
    expect(a.exportToClaudeDesktop).toHaveBeenCalledTimes(1);
    expect(a.copyHubConnection).toHaveBeenCalledTimes(1);
    expect(a.openLogsFolder).toHaveBeenCalledTimes(1);
    expect(a.checkForUpdates).toHaveBeenCalledTimes(1);
    expect(a.setServerEnabled.mock.calls).toEqual([
      ['github', false],
      ['old', true],
    ]);
    expect(a.setStartAtLogin).toHaveBeenCalledWith(false);
    expect(a.quit).toHaveBeenCalledTimes(1);
    const failed = trayMenuTemplate(STATES['hub failed']!, a);
    (failed.find((i) => i.label === 'Retry Starting the Hub')!.click as () => void)();
    expect(a.retryHub).toHaveBeenCalledTimes(1);
    const update = trayMenuTemplate(STATES['running, an update available']!, a);
    (update.find((i) => i.label === 'Update Available: Patchbay 1.3.0…')!.click as () => void)();
    expect(a.openUpdate).toHaveBeenCalledTimes(1);
  });

  it('has an enable toggle per server and the items the issue asks for', () => {
    const labels = describeMenu(trayMenuTemplate(STATES['running, serving']!, actions())).map((i) => i.label);
    for (const expected of ['Patchbay 1.2.3', 'Hub serving on port 39517', 'Live sessions: 3', 'Open Patchbay', 'Export to Claude Desktop…', 'Copy Hub URL and Token', 'Start at Login', 'Open Logs Folder', 'Check for Updates…', 'Quit Patchbay']) {
      expect(labels).toContain(expected);
    }
    const servers = trayMenuTemplate(STATES['running, serving']!, actions()).filter((i) => i.type === 'checkbox' && i.label !== 'Start at Login');
    expect(servers.map((s) => [s.label, s.checked])).toEqual([
      ['github — running, 2 sessions', true],
      ['fs — running, 1 session', true],
      ['notes — idle', true],
      ['old — disabled', false],
    ]);
  });

  it('picks the icon from the state (starting, stopped, idle, serving, error), template images on macOS only', () => {
    expect(trayIconState(STATES.starting!)).toBe('starting');
    expect(trayIconState(STATES.stopped!)).toBe('stopped');
    expect(trayIconState(STATES['running, no servers']!)).toBe('idle');
    expect(trayIconState(STATES['running, serving']!)).toBe('serving');
    expect(trayIconState(STATES['running, a server failing']!)).toBe('error');
    expect(trayIconState(STATES['hub failed']!)).toBe('error');
    expect(trayIconFile('/a/tray', 'serving', 'darwin')).toBe('/a/tray/trayServingTemplate.png');
    expect(trayIconFile('/a/tray', 'error', 'win32')).toMatch(/tray-error\.png$/);
    expect(trayIconFile('/a/tray', 'idle', 'linux')).toBe('/a/tray/tray-idle.png');
    expect(trayIconFile('/a/tray', 'starting', 'darwin')).toBe('/a/tray/trayStartingTemplate.png');
    expect(trayIconFile('/a/tray', 'stopped', 'linux')).toBe('/a/tray/tray-stopped.png');
  });
});
