/**
 * `patchbay clients|export|import|doctor` run in-process against a temp home and data dir.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/run-cli.js';
import { setLogSink } from '../../src/main/core/log/logger.js';
import { cli } from '../helpers/cli-io.js';

let root: string;
let home: string;
let dataDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'pb-clients-cli-'));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  await mkdir(home, { recursive: true });
  await mkdir(dataDir, { recursive: true });
  // hub.port 0: the doctor's port check never depends on what else runs on this machine.
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: ['x.js'] }, web: { url: 'https://example.com/mcp' } }, hub: { port: 0 } }));
  setLogSink(() => undefined);
});
afterEach(async () => {
  setLogSink(undefined);
  await rm(root, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, out, err } = cli(dataDir, { env: { PATCHBAY_HOME: dataDir, PATCHBAY_NO_LOGIN_SHELL: '1', PATH: path.dirname(process.execPath) }, platform: 'linux', homedir: home, cwd: root });
  const code = await runCli(args, io);
  return { code, stdout: out(), stderr: err() };
}

const claudeFile = (): string => path.join(home, '.config', 'Claude', 'claude_desktop_config.json');

describe('patchbay export', () => {
  it('previews with --dry-run, writes, is then up to date, and rolls back', async () => {
    const dry = await run('export', 'claude-desktop', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('+++ ');
    expect(dry.stdout).toContain('"relay",');
    expect(dry.stderr).toContain('dry run');
    await expect(readFile(claudeFile())).rejects.toThrow();

    const wrote = await run('export', 'claude-desktop');
    expect(wrote.code).toBe(0);
    expect(wrote.stderr).toMatch(/wrote .*claude_desktop_config\.json \(backup \d{8}T\d{9}Z-[0-9a-f]{6}/);
    expect(wrote.stderr).toContain('Quit Claude Desktop');
    const config = JSON.parse(await readFile(claudeFile(), 'utf8'));
    expect(Object.keys(config.mcpServers)).toEqual(['fs', 'web']);
    expect(config.mcpServers.fs.args.slice(-2)).toEqual(['relay', 'fs']);

    const again = await run('export', 'claude-desktop');
    expect(again.stderr).toContain('is up to date');

    const list = await run('export', 'claude-desktop', '--list-backups');
    expect(list.stdout).toContain('(file did not exist)');
    const back = await run('export', 'claude-desktop', '--rollback');
    expect(back.code).toBe(0);
    expect(back.stderr).toContain('removed');
    await expect(readFile(claudeFile())).rejects.toThrow();
  });

  it('exports chosen servers to a given file, in the kind asked for', async () => {
    const file = path.join(root, 'project', '.cursor', 'mcp.json');
    const result = await run('export', 'cursor', '--servers', 'web', '--transport', 'stdio', '--file', 'project/.cursor/mcp.json');
    expect(result.code).toBe(0);
    const config = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(config.mcpServers)).toEqual(['web']);
    expect(config.mcpServers.web.command).toBe(process.execPath);
  });

  it('answers bad input with usage errors and unknown servers with a list', async () => {
    expect((await run('export', 'notepad')).stderr).toContain("unknown client 'notepad'; use one of: claude-desktop");
    expect((await run('export', 'cursor', '--transport', 'carrier-pigeon')).code).toBe(2);
    expect((await run('export', 'claude-desktop', '--transport', 'http')).stderr).toContain('does not take URL entries');
    const unknown = await run('export', 'cursor', '--servers', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("there is no server 'nope' in Patchbay's config (servers: fs, web)");
  });

  it('refuses an invalid client file and says where it is broken', async () => {
    await mkdir(path.dirname(claudeFile()), { recursive: true });
    await writeFile(claudeFile(), '{"mcpServers": {,}}');
    const result = await run('export', 'claude-desktop');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not valid JSON: .* at line 1, column \d+.*untouched/);
    expect(await readFile(claudeFile(), 'utf8')).toBe('{"mcpServers": {,}}');
  });
});

describe('patchbay import, clients and doctor', () => {
  it('imports a client’s servers with their keys moved to the secret store', async () => {
    await mkdir(path.dirname(claudeFile()), { recursive: true });
    await writeFile(claudeFile(), JSON.stringify({ mcpServers: { brave: { command: 'npx', args: ['-y', 'brave'], env: { BRAVE_API_KEY: 'BSA-secret-value' } } } }));
    const result = await run('import', 'claude-desktop');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('imported brave (secrets: brave.BRAVE_API_KEY)');
    const config = await readFile(path.join(dataDir, 'config.json'), 'utf8');
    expect(config).not.toContain('BSA-secret-value');
    expect(config).toContain('${secret:brave.BRAVE_API_KEY}');
    expect(await readFile(path.join(dataDir, 'secrets.json'), 'utf8')).toContain('BSA-secret-value');
  });

  it('lists the clients with their state', async () => {
    await run('export', 'claude-desktop');
    const result = await run('clients');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^CLIENT +INSTALLED +STATUS +PATCHBAY +OTHER +CONFIG/);
    expect(result.stdout).toMatch(/claude-desktop +yes +ok +2 +0 /);
    expect(result.stdout).toMatch(/continue +no +missing +0 +0 /);
    const json = JSON.parse((await run('clients', '--json')).stdout) as Array<{ id: string }>;
    expect(json).toHaveLength(13);
  });

  it('runs the doctor and applies its safe fixes', async () => {
    await run('export', 'claude-desktop');
    await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { fs: { command: process.execPath } }, hub: { port: 0 } }));
    const report = await run('doctor');
    expect(report.code).toBe(1);
    expect(report.stdout).toContain("[FAIL] Claude Desktop: Patchbay's entries are out of date");
    expect(report.stdout).toContain("'web' points at server 'web', which is no longer in Patchbay");
    expect(report.stdout).toContain('fix: Rewrite');
    const fixed = await run('doctor', '--fix');
    expect(fixed.stderr).toContain("fixed: rewrote Patchbay's entries");
    expect(fixed.stdout).toContain('[ok  ] Claude Desktop: 1 Patchbay entry up to date');
    expect(fixed.code).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(claudeFile(), 'utf8')).mcpServers)).toEqual(['fs']);
  });
});
