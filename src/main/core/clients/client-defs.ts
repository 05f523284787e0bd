/**
 * The MCP clients Patchbay knows: where each keeps its server list on macOS, Windows and Linux,
 * in which format and under which key, and which entry kinds it takes. Sources: each client's
 * documentation and source (see docs/clients.md); design notes in shared/design/CLIENTS.md.
 */
import { CLIENT_IDS } from '../../../shared/api/clients-contract.js';
import { appData, homePath, hostPath, localAppData, userConfigDir, xdgConfig, type ClientHost } from './client-host.js';
import {
  claudeCodeShape,
  claudeDesktopShape,
  clineShape,
  codexShape,
  continueShape,
  cursorShape,
  geminiShape,
  gooseShape,
  lmStudioShape,
  opencodeShape,
  vscodeShape,
  windsurfShape,
  zedShape,
  type EntryShape,
} from './entry-shapes.js';

export { CLIENT_IDS };
export type ClientId = (typeof CLIENT_IDS)[number];

/** `json` is strict (the client uses JSON.parse); `jsonc` allows comments and trailing commas. */
export type ClientFormat = 'json' | 'jsonc' | 'toml' | 'yaml';
export type EntryKind = 'stdio' | 'http';

export interface ClientDef {
  id: ClientId;
  name: string;
  format: ClientFormat;
  /** The top-level key holding the servers. */
  key: string;
  /** `map`: name → entry. `list`: an array of entries carrying a `name` (Continue). */
  container: 'map' | 'list';
  /** Entry kinds the client takes, preferred first. */
  kinds: readonly EntryKind[];
  shape: EntryShape;
  /** Candidate config files, most specific first; the first that exists is used, else the first. */
  configPaths(host: ClientHost): string[];
  /** Files or folders whose presence means the client is installed. */
  installMarkers(host: ClientHost): string[];
  /** Executables on PATH that mean the client is installed. */
  binaries?: readonly string[];
  /** Started from a desktop launcher, so it sees the minimal desktop PATH, not the shell's. */
  desktop: boolean;
  /** Entry names the client accepts (Codex allows only `[A-Za-z0-9_-]`). */
  entryName?(serverId: string): string;
  /** Text a missing file starts from (before Patchbay's entries are added). */
  newFileText?: string;
  /** What the person must do for the client to see a change. */
  restartHint: string;
}

/** Claude Desktop from the Microsoft Store (MSIX) reads a virtualised copy of %APPDATA%. */
export const CLAUDE_MSIX_PACKAGE = 'Claude_pzs8sxrjxfjjc';

export function claudeDesktopPaths(host: ClientHost): { classic: string; msix?: string; msixPackageDir?: string } {
  const p = hostPath(host);
  if (host.platform === 'win32') {
    const packageDir = p.join(localAppData(host), 'Packages', CLAUDE_MSIX_PACKAGE);
    return {
      classic: p.join(appData(host), 'Claude', 'claude_desktop_config.json'),
      msix: p.join(packageDir, 'LocalCache', 'Roaming', 'Claude', 'claude_desktop_config.json'),
      msixPackageDir: packageDir,
    };
  }
  return { classic: p.join(userConfigDir(host), 'Claude', 'claude_desktop_config.json') };
}

const join = (host: ClientHost, ...parts: string[]): string => hostPath(host).join(...parts);
const dirOf = (host: ClientHost, file: string): string => hostPath(host).dirname(file);

/** VS Code's per-user folder (`…/Code/User`), or another VS Code build's. */
function codeUserDir(host: ClientHost, product = 'Code'): string {
  return join(host, userConfigDir(host), product, 'User');
}

const CLINE_SETTINGS = ['globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'];

/** Zed: %APPDATA%\Zed on Windows, $XDG_CONFIG_HOME/zed on Linux, ~/.config/zed on macOS (no XDG there). */
function zedSettings(host: ClientHost): string {
  if (host.platform === 'win32') return join(host, appData(host), 'Zed', 'settings.json');
  if (host.platform === 'darwin') return homePath(host, '.config', 'zed', 'settings.json');
  return join(host, xdgConfig(host), 'zed', 'settings.json');
}

function gooseConfig(host: ClientHost): string {
  if (host.platform === 'win32') return join(host, appData(host), 'Block', 'goose', 'config', 'config.yaml');
  return join(host, xdgConfig(host), 'goose', 'config.yaml');
}

export const CLIENTS: readonly ClientDef[] = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    format: 'json',
    key: 'mcpServers',
    container: 'map',
    kinds: ['stdio'],
    shape: claudeDesktopShape,
    // The live one of the two Windows paths is chosen in client-registry.ts (MSIX detection).
    configPaths: (host) => {
      const paths = claudeDesktopPaths(host);
      return paths.msix ? [paths.msix, paths.classic] : [paths.classic];
    },
    installMarkers: (host) => {
      const paths = claudeDesktopPaths(host);
      if (host.platform === 'darwin') return ['/Applications/Claude.app', homePath(host, 'Applications', 'Claude.app'), dirOf(host, paths.classic)];
      if (host.platform === 'win32') return [join(host, localAppData(host), 'AnthropicClaude'), paths.msixPackageDir ?? '', dirOf(host, paths.classic)].filter(Boolean);
      return [dirOf(host, paths.classic)];
    },
    desktop: true,
    restartHint: 'Quit Claude Desktop completely (also from the tray / menu bar) and start it again.',
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    format: 'json',
    key: 'mcpServers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: claudeCodeShape,
    configPaths: (host) => {
      const dir = host.env.CLAUDE_CONFIG_DIR;
      return [dir && dir.trim() !== '' ? join(host, dir, '.claude.json') : homePath(host, '.claude.json')];
    },
    installMarkers: (host) => [homePath(host, '.claude')],
    binaries: ['claude'],
    desktop: false,
    restartHint: 'Start a new Claude Code session (user-scope servers; check with `claude mcp list`).',
  },
  {
    id: 'cursor',
    name: 'Cursor',
    format: 'json',
    key: 'mcpServers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: cursorShape,
    configPaths: (host) => [homePath(host, '.cursor', 'mcp.json')],
    installMarkers: (host) => [homePath(host, '.cursor'), ...(host.platform === 'darwin' ? ['/Applications/Cursor.app'] : [])],
    binaries: ['cursor'],
    desktop: true,
    restartHint: 'Cursor picks the change up on its own; if not, toggle the server in Settings → MCP.',
  },
  {
    id: 'vscode',
    name: 'VS Code',
    format: 'jsonc',
    key: 'servers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: vscodeShape,
    configPaths: (host) => [join(host, codeUserDir(host), 'mcp.json')],
    installMarkers: (host) => [codeUserDir(host)],
    binaries: ['code'],
    desktop: true,
    restartHint: 'VS Code reloads mcp.json on save; start the servers from the MCP view if they do not start.',
  },
  {
    id: 'windsurf',
    name: 'Windsurf',
    format: 'json',
    key: 'mcpServers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: windsurfShape,
    configPaths: (host) => [homePath(host, '.codeium', 'windsurf', 'mcp_config.json')],
    installMarkers: (host) => [homePath(host, '.codeium', 'windsurf')],
    binaries: ['windsurf'],
    desktop: true,
    restartHint: 'Press Refresh in Windsurf’s MCP panel (Cascade → MCP servers).',
  },
  {
    id: 'codex',
    name: 'Codex',
    format: 'toml',
    key: 'mcp_servers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: codexShape,
    configPaths: (host) => {
      const dir = host.env.CODEX_HOME;
      return [dir && dir.trim() !== '' ? join(host, dir, 'config.toml') : homePath(host, '.codex', 'config.toml')];
    },
    installMarkers: (host) => [homePath(host, '.codex')],
    binaries: ['codex'],
    desktop: false,
    entryName: (id) => id.replace(/[^A-Za-z0-9_-]/g, '_'),
    // Not `codex mcp list`: it only prints the config. `/mcp` lists the tools of the servers the
    // session actually started, so a server that failed shows none.
    restartHint: 'Start a new Codex session; its /mcp command lists the tools of each server it could start.',
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    format: 'jsonc',
    key: 'mcpServers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: geminiShape,
    configPaths: (host) => [homePath(host, '.gemini', 'settings.json')],
    installMarkers: (host) => [homePath(host, '.gemini')],
    binaries: ['gemini'],
    desktop: false,
    restartHint: 'Start a new Gemini CLI session (check with `/mcp`).',
  },
  {
    id: 'lmstudio',
    name: 'LM Studio',
    format: 'json',
    key: 'mcpServers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: lmStudioShape,
    configPaths: (host) => [homePath(host, '.lmstudio', 'mcp.json'), homePath(host, '.cache', 'lm-studio', 'mcp.json')],
    installMarkers: (host) => [homePath(host, '.lmstudio'), homePath(host, '.cache', 'lm-studio')],
    binaries: ['lms'],
    desktop: true,
    restartHint: 'LM Studio reloads mcp.json on save; reopen the Program tab if the tools do not appear.',
  },
  {
    id: 'zed',
    name: 'Zed',
    format: 'jsonc',
    key: 'context_servers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: zedShape,
    configPaths: (host) => [zedSettings(host)],
    installMarkers: (host) => [dirOf(host, zedSettings(host)), ...(host.platform === 'darwin' ? ['/Applications/Zed.app'] : [])],
    binaries: ['zed', 'zeditor'],
    desktop: true,
    restartHint: 'Zed reloads settings.json on save.',
  },
  {
    id: 'cline',
    name: 'Cline',
    format: 'json',
    key: 'mcpServers',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: clineShape,
    configPaths: (host) => [
      join(host, codeUserDir(host), ...CLINE_SETTINGS),
      join(host, codeUserDir(host, 'Cursor'), ...CLINE_SETTINGS),
      homePath(host, '.cline', 'data', 'settings', 'cline_mcp_settings.json'),
    ],
    installMarkers: (host) => [
      join(host, codeUserDir(host), 'globalStorage', 'saoudrizwan.claude-dev'),
      join(host, codeUserDir(host, 'Cursor'), 'globalStorage', 'saoudrizwan.claude-dev'),
      homePath(host, '.cline'),
    ],
    binaries: ['cline'],
    desktop: true,
    restartHint: 'Cline watches its settings file; press Restart Server in its MCP panel if needed.',
  },
  {
    id: 'opencode',
    name: 'opencode',
    format: 'jsonc',
    key: 'mcp',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: opencodeShape,
    configPaths: (host) => [join(host, xdgConfig(host), 'opencode', 'opencode.json'), join(host, xdgConfig(host), 'opencode', 'opencode.jsonc')],
    installMarkers: (host) => [join(host, xdgConfig(host), 'opencode')],
    binaries: ['opencode'],
    desktop: false,
    newFileText: '{\n  "$schema": "https://opencode.ai/config.json"\n}\n',
    restartHint: 'Start opencode again.',
  },
  {
    id: 'goose',
    name: 'Goose',
    format: 'yaml',
    key: 'extensions',
    container: 'map',
    kinds: ['http', 'stdio'],
    shape: gooseShape,
    configPaths: (host) => [gooseConfig(host)],
    installMarkers: (host) => [dirOf(host, gooseConfig(host))],
    binaries: ['goose'],
    desktop: false,
    restartHint: 'Start a new Goose session (Goose Desktop: restart it).',
  },
  {
    id: 'continue',
    name: 'Continue',
    format: 'yaml',
    key: 'mcpServers',
    container: 'list',
    kinds: ['http', 'stdio'],
    shape: continueShape,
    configPaths: (host) => [homePath(host, '.continue', 'config.yaml')],
    installMarkers: (host) => [homePath(host, '.continue')],
    desktop: true,
    newFileText: 'name: Local Config\nversion: 1.0.0\nschema: v1\n',
    restartHint: 'Continue reloads config.yaml on save; run "Continue: Reload" if the tools do not appear.',
  },
];

/** The definition of a client id (ids are validated at the boundary with isClientId). */
export function clientDef(id: ClientId): ClientDef {
  const def = CLIENTS.find((c) => c.id === id);
  if (!def) throw new Error(`unknown client '${id}'`);
  return def;
}

export function isClientId(value: string): value is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(value);
}
