import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_IDS, CLIENTS, clientDef, type ClientId } from './client-defs.js';
import { isInstalled, locateConfig } from './client-file.js';
import type { ClientHost } from './client-host.js';

const mac: ClientHost = { platform: 'darwin', home: '/Users/ada', env: {} };
const linux: ClientHost = { platform: 'linux', home: '/home/ada', env: {} };
const win: ClientHost = {
  platform: 'win32',
  home: 'C:\\Users\\ada',
  env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' },
};

const first = (id: ClientId, host: ClientHost): string => clientDef(id).configPaths(host)[0]!;

describe('client registry', () => {
  it('knows the thirteen clients, in the CLI’s id order', () => {
    expect(CLIENTS.map((c) => c.id)).toEqual([...CLIENT_IDS]);
    for (const def of CLIENTS) {
      expect(def.kinds.length).toBeGreaterThan(0);
      for (const kind of def.kinds) expect(kind === 'stdio' ? def.shape.writeStdio : def.shape.writeHttp).toBeDefined();
    }
    expect(clientDef('claude-desktop').kinds).toEqual(['stdio']);
  });

  it.each<[ClientId, string, string, string]>([
    ['claude-desktop', '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json', 'C:\\Users\\ada\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json', '/home/ada/.config/Claude/claude_desktop_config.json'],
    ['claude-code', '/Users/ada/.claude.json', 'C:\\Users\\ada\\.claude.json', '/home/ada/.claude.json'],
    ['cursor', '/Users/ada/.cursor/mcp.json', 'C:\\Users\\ada\\.cursor\\mcp.json', '/home/ada/.cursor/mcp.json'],
    ['vscode', '/Users/ada/Library/Application Support/Code/User/mcp.json', 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json', '/home/ada/.config/Code/User/mcp.json'],
    ['windsurf', '/Users/ada/.codeium/windsurf/mcp_config.json', 'C:\\Users\\ada\\.codeium\\windsurf\\mcp_config.json', '/home/ada/.codeium/windsurf/mcp_config.json'],
    ['codex', '/Users/ada/.codex/config.toml', 'C:\\Users\\ada\\.codex\\config.toml', '/home/ada/.codex/config.toml'],
    ['gemini', '/Users/ada/.gemini/settings.json', 'C:\\Users\\ada\\.gemini\\settings.json', '/home/ada/.gemini/settings.json'],
    ['lmstudio', '/Users/ada/.lmstudio/mcp.json', 'C:\\Users\\ada\\.lmstudio\\mcp.json', '/home/ada/.lmstudio/mcp.json'],
    ['zed', '/Users/ada/.config/zed/settings.json', 'C:\\Users\\ada\\AppData\\Roaming\\Zed\\settings.json', '/home/ada/.config/zed/settings.json'],
    ['cline', '/Users/ada/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json', 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json', '/home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json'],
    ['opencode', '/Users/ada/.config/opencode/opencode.json', 'C:\\Users\\ada\\.config\\opencode\\opencode.json', '/home/ada/.config/opencode/opencode.json'],
    ['goose', '/Users/ada/.config/goose/config.yaml', 'C:\\Users\\ada\\AppData\\Roaming\\Block\\goose\\config\\config.yaml', '/home/ada/.config/goose/config.yaml'],
    ['continue', '/Users/ada/.continue/config.yaml', 'C:\\Users\\ada\\.continue\\config.yaml', '/home/ada/.continue/config.yaml'],
  ])('%s: macOS, Windows and Linux paths', (id, darwinPath, winPath, linuxPath) => {
    expect(first(id, mac)).toBe(darwinPath);
    expect(first(id, win)).toBe(winPath);
    expect(first(id, linux)).toBe(linuxPath);
  });

  it('honours CLAUDE_CONFIG_DIR, CODEX_HOME and XDG_CONFIG_HOME (Linux only for Zed)', () => {
    expect(first('claude-code', { ...linux, env: { CLAUDE_CONFIG_DIR: '/cfg/claude' } })).toBe('/cfg/claude/.claude.json');
    expect(first('codex', { ...linux, env: { CODEX_HOME: '/cfg/codex' } })).toBe('/cfg/codex/config.toml');
    expect(first('zed', { ...linux, env: { XDG_CONFIG_HOME: '/x' } })).toBe('/x/zed/settings.json');
    expect(first('zed', { ...mac, env: { XDG_CONFIG_HOME: '/x' } })).toBe('/Users/ada/.config/zed/settings.json');
    expect(first('goose', { ...linux, env: { XDG_CONFIG_HOME: 'relative/ignored' } })).toBe('/home/ada/.config/goose/config.yaml');
  });

  it('after an export, suggests a check that starts the server, not one that only prints the config', () => {
    // `codex mcp list` reads config.toml back; a session's /mcp shows what actually started.
    expect(clientDef('codex').restartHint).not.toContain('mcp list');
    expect(clientDef('codex').restartHint).toContain('/mcp');
  });

  it('gives Codex entry names it accepts', () => {
    expect(clientDef('codex').entryName?.('my.server')).toBe('my_server');
  });
});

describe('finding the live config on disk', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
    root = undefined;
  });

  /** A Windows machine whose C: drive is a temp dir. */
  async function windows(): Promise<{ host: ClientHost; disk(p: string): string }> {
    root = await mkdtemp(path.join(os.tmpdir(), 'pb-defs-'));
    const base = root;
    const disk = (p: string): string => path.join(base, 'C', ...p.slice(2).split('\\').filter(Boolean));
    return { host: { ...win, fsPath: disk }, disk };
  }

  it('uses Claude Desktop’s MSIX path when the Store package is installed, else %APPDATA%', async () => {
    const { host, disk } = await windows();
    const def = clientDef('claude-desktop');
    expect(await locateConfig(def, host)).toBe('C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(await isInstalled(def, host, await locateConfig(def, host))).toBe(false);
    await mkdir(disk('C:\\Users\\ada\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc'), { recursive: true });
    expect(await locateConfig(def, host)).toBe('C:\\Users\\ada\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json');
    expect(await isInstalled(def, host, await locateConfig(def, host))).toBe(true);
  });

  it('prefers an existing candidate (LM Studio’s older path) and finds clients by their command on PATH', async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'pb-defs-'));
    const host: ClientHost = { platform: 'linux', home: path.join(root, 'home'), env: { PATH: path.join(root, 'bin') } };
    const lm = clientDef('lmstudio');
    const older = path.join(host.home, '.cache', 'lm-studio', 'mcp.json');
    await mkdir(path.dirname(older), { recursive: true });
    await writeFile(older, '{}');
    expect(await locateConfig(lm, host)).toBe(older);
    const codex = clientDef('codex');
    expect(await isInstalled(codex, host, await locateConfig(codex, host))).toBe(false);
    await mkdir(path.join(root, 'bin'), { recursive: true });
    await writeFile(path.join(root, 'bin', 'codex'), '#!/bin/sh\n', { mode: 0o755 });
    expect(await isInstalled(codex, host, await locateConfig(codex, host))).toBe(true);
  });
});
