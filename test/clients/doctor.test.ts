/**
 * The doctor on temp machines: what goes wrong in practice is set up for real (a command only
 * the shell's PATH has, a missing runtime, a taken port, a revoked client token, a moved relay, a broken
 * client file, Claude Desktop from the Store) and each check, and each safe fix, is verified.
 */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientsError } from '../../src/main/core/clients/clients-error.js';
import { describeEra, runDoctor, type DoctorReport } from '../../src/main/core/clients/doctor.js';
import { applyFix } from '../../src/main/core/clients/doctor-fixes.js';
import { setLogSink } from '../../src/main/core/log/logger.js';
import { tempMachine, testClients, type TempMachine, type TestClients, type TestClientsOptions } from './client-fixtures.js';

let machine: TempMachine;
let clients: TestClients | undefined;

beforeEach(() => setLogSink(() => undefined));
afterEach(async () => {
  setLogSink(undefined);
  await clients?.close();
  clients = undefined;
  await machine?.cleanup();
});

async function open(servers: Record<string, unknown>, options: TestClientsOptions = {}): Promise<TestClients> {
  await clients?.close();
  clients = await testClients(machine, servers, options);
  return clients;
}

function check(report: DoctorReport, id: string): DoctorReport['checks'][number] {
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check '${id}' in: ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
}

/** An executable script in a temp bin dir, returning the dir. */
async function tool(dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), '#!/bin/sh\nexit 0\n');
  await chmod(path.join(dir, name), 0o755);
  return dir;
}

async function writeClientFile(file: string, data: unknown): Promise<void> {
  await mkdir(path.dirname(machine.disk(file)), { recursive: true });
  await writeFile(machine.disk(file), typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

describe('doctor', () => {
  it('finds a client command only the shell’s PATH has, and fixes it with the absolute path', async () => {
    machine = await tempMachine('linux');
    const shellBin = await tool(path.join(machine.root, 'shell-bin'), 'mytool');
    const desktopBin = path.join(machine.root, 'desktop-bin');
    await mkdir(desktopBin);
    const c = await open({}, { loginPath: shellBin, desktopPath: desktopBin });
    const file = await c.service.configPath('claude-desktop');
    await writeClientFile(file, { mcpServers: { notes: { command: 'mytool', args: ['--serve'], env: { A: '1' }, keepMe: true }, gone: { command: 'uvx', args: ['x'] } } });

    const report = await runDoctor(c.doctor);
    const notes = check(report, 'client-command:claude-desktop:notes');
    expect(notes.status).toBe('warn');
    expect(notes.detail).toContain(path.join(shellBin, 'mytool'));
    expect(notes.fix?.id).toBe('abspath:claude-desktop:notes');
    const gone = check(report, 'client-command:claude-desktop:gone');
    expect(gone).toMatchObject({ status: 'error', hint: expect.stringContaining('uv') });
    expect(gone.fix).toBeUndefined();

    const fixed = await applyFix('abspath:claude-desktop:notes', c.doctor);
    expect(fixed.backupId).toBeDefined();
    const after = JSON.parse(await readFile(machine.disk(file), 'utf8'));
    expect(after.mcpServers.notes).toEqual({ command: path.join(shellBin, 'mytool'), args: ['--serve'], env: { A: '1', PATH: `${shellBin}:${desktopBin}` }, keepMe: true });
    expect(after.mcpServers.gone).toEqual({ command: 'uvx', args: ['x'] });
    const again = await runDoctor(c.doctor);
    expect(again.checks.some((x) => x.id === 'client-command:claude-desktop:notes')).toBe(false);
    // A fix that is no longer offered is refused.
    await expect(applyFix('abspath:claude-desktop:notes', c.doctor)).rejects.toThrow(ClientsError);
  });

  it('reports servers whose runtime is missing, with how to install it', async () => {
    machine = await tempMachine('linux');
    const bin = await tool(path.join(machine.root, 'bin'), 'node');
    const c = await open({ ok: { command: 'node', args: ['x.js'] }, py: { command: 'uvx', args: ['mcp-server-time'] }, off: { command: 'nothing', disabled: true } }, { loginPath: bin });
    const report = await runDoctor(c.doctor);
    expect(check(report, 'server-command:ok').status).toBe('ok');
    expect(check(report, 'server-command:py')).toMatchObject({ status: 'error', hint: expect.stringContaining('docs.astral.sh/uv') });
    expect(report.checks.some((x) => x.id === 'server-command:off')).toBe(false);
  });

  it('Q7: says which protocol era each server speaks: a pinned era from the config when no hub runs', async () => {
    machine = await tempMachine('linux');
    const c = await open(
      { a: { command: 'node', protocol: 'modern' }, b: { command: 'node', protocol: '2025-06-18' }, c: { command: 'node' }, off: { command: 'node', protocol: 'modern', disabled: true } },
      { engine: false, hubPort: 0 },
    );
    const report = await runDoctor(c.doctor);
    expect(check(report, 'server-era:a')).toMatchObject({ status: 'info', title: "server 'a': speaks the modern era (2026-07-28: sessionless), set in config.json" });
    expect(check(report, 'server-era:b').title).toBe("server 'b': speaks the legacy era (2025 and earlier: initialize and sessions), pinned to 2025-06-18 in config.json");
    expect(check(report, 'server-era:c').title).toBe("server 'c': protocol era found out when the hub first connects (start the hub to see it)");
    expect(report.checks.some((x) => x.id === 'server-era:off')).toBe(false);
  });

  it('Q11: names both eras a server speaks, each fact with how the hub learned it, and says what is not asked yet', () => {
    expect(describeEra({ era: 'both', legacy: { speaks: true, how: 'initialize' }, modern: { speaks: true, how: 'probe' }, versions: ['2026-07-28'] }, true)).toBe(
      'speaks both protocol eras (2025: initialize and sessions; 2026-07-28: sessionless), each client in its own — 2025: yes (its answer to initialize), 2026-07-28: yes (its answer to a server/discover probe); supports 2026-07-28',
    );
    expect(describeEra({ era: 'legacy', legacy: { speaks: true, how: 'initialize' } }, true)).toBe(
      'speaks the legacy era (2025 and earlier: initialize and sessions) — 2025: yes (its answer to initialize), 2026-07-28: not asked yet',
    );
    expect(describeEra({ era: 'modern', legacy: { speaks: false, how: 'initialize' }, modern: { speaks: true, how: 'initialize' } }, true)).toBe(
      'speaks the modern era (2026-07-28: sessionless) — 2025: no (its answer to initialize), 2026-07-28: yes (its answer to initialize)',
    );
    expect(describeEra({ era: 'legacy', modern: { speaks: false, how: 'probe' } }, true)).toBe(
      'speaks the legacy era (2025 and earlier: initialize and sessions) — 2025: not asked yet, 2026-07-28: no (its answer to a server/discover probe)',
    );
  });

  it('reports a taken hub port when no hub runs', async () => {
    machine = await tempMachine('linux');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const c = await open({}, { engine: false, hubPort: port });
      expect(check(await runDoctor(c.doctor), 'hub')).toMatchObject({ status: 'error', title: expect.stringContaining(`port ${port} is taken`) });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const c = await open({}, { engine: false, hubPort: 0 });
    expect(check(await runDoctor(c.doctor), 'hub').status).toBe('info');
  });

  it('keeps a client token healthy across a hub token rotation, flags a revoked or unknown one and the hub token, and re-exports', async () => {
    machine = await tempMachine('linux');
    let c = await open({ fs: { command: 'node' } });
    await c.service.export('cursor');
    const file = await c.service.configPath('cursor');
    const tokenInFile = async (): Promise<string> => /"Bearer (pbc_[A-Za-z0-9_-]{43})"/.exec(await readFile(machine.disk(file), 'utf8'))![1]!;
    const first = await tokenInFile();
    await writeFile(path.join(machine.dataDir, 'hub-token'), 'N'.repeat(43) + '\n');
    // The hub token was rotated: the entry holds a client token of its own, which still works.
    c = await open({ fs: { command: 'node' } });
    expect(check(await runDoctor(c.doctor), 'client-entries:cursor')).toMatchObject({ status: 'ok' });

    // Revoked (in Settings, or with `patchbay tokens revoke`): the hub answers it with 401.
    const tokens = await c.service.deps.tokens!();
    await tokens.revoke(tokens.list()[0]!.id);
    const revoked = check(await runDoctor(c.doctor), 'client-entries:cursor');
    expect(revoked).toMatchObject({ status: 'error', fix: { id: 'reexport:cursor' } });
    expect(revoked.detail).toContain("'fs' carries a client token that was revoked");
    expect(revoked.detail).toContain('export again');
    await applyFix('reexport:cursor', c.doctor);
    expect(await tokenInFile()).not.toBe(first);
    expect(check(await runDoctor(c.doctor), 'client-entries:cursor').status).toBe('ok');

    // A client token this data dir never minted (copied from another machine, say).
    await writeFile(machine.disk(file), (await readFile(machine.disk(file), 'utf8')).replace(await tokenInFile(), 'pbc_' + 'z'.repeat(43)));
    expect(check(await runDoctor(c.doctor), 'client-entries:cursor').detail).toContain('a client token this Patchbay does not know');

    // The hub token (an export from before client tokens): it works, but cannot be revoked alone.
    await writeFile(machine.disk(file), (await readFile(machine.disk(file), 'utf8')).replace('pbc_' + 'z'.repeat(43), 'N'.repeat(43)));
    expect(check(await runDoctor(c.doctor), 'client-entries:cursor')).toMatchObject({ status: 'warn', fix: { id: 'reexport:cursor' } });

    // An old hub token, from before a rotation: refused.
    await writeFile(machine.disk(file), (await readFile(machine.disk(file), 'utf8')).replace('N'.repeat(43), 'O'.repeat(43)));
    expect(check(await runDoctor(c.doctor), 'client-entries:cursor').detail).toContain("'fs' carries an old hub token");
    await applyFix('reexport:cursor', c.doctor);
    expect(check(await runDoctor(c.doctor), 'client-entries:cursor').status).toBe('ok');

    // The hub moved to another port: the entry (recognised by its client token) points at the old one.
    c = await open({ fs: { command: 'node' } }, { port: 45999 });
    const moved = check(await runDoctor(c.doctor), 'client-entries:cursor');
    expect(moved.detail).toContain('points at port 45678, but the hub uses port 45999');
    await applyFix('reexport:cursor', c.doctor);
    expect(await readFile(machine.disk(file), 'utf8')).toContain('http://127.0.0.1:45999/mcp/fs');
  });

  it('finds a relay that no longer exists and entries of removed servers', async () => {
    machine = await tempMachine('linux');
    const script = path.join(machine.root, 'old', 'patchbay.js');
    await mkdir(path.dirname(script), { recursive: true });
    await writeFile(script, '');
    let c = await open({ fs: { command: 'node' }, gone: { command: 'node' } }, { launcher: { command: process.execPath, args: [script] } });
    await c.service.export('claude-desktop');
    await rm(script);
    const fresh = path.join(machine.root, 'new', 'patchbay.js');
    await mkdir(path.dirname(fresh), { recursive: true });
    await writeFile(fresh, '');
    c = await open({ fs: { command: 'node' } }, { launcher: { command: process.execPath, args: [fresh] } });
    const stale = check(await runDoctor(c.doctor), 'client-entries:claude-desktop');
    expect(stale.detail).toContain('does not exist any more');
    expect(stale.detail).toContain("server 'gone', which is no longer in Patchbay");
    await applyFix('reexport:claude-desktop', c.doctor);
    const written = JSON.parse(await readFile(machine.disk(await c.service.configPath('claude-desktop')), 'utf8'));
    expect(Object.keys(written.mcpServers)).toEqual(['fs']);
    expect(written.mcpServers.fs.args[0]).toBe(fresh);
    expect(check(await runDoctor(c.doctor), 'client-entries:claude-desktop').status).toBe('ok');
  });

  it('reports an invalid client config with its position, and points at the backup', async () => {
    machine = await tempMachine('linux');
    const c = await open({ fs: { command: 'node' } });
    await c.service.export('vscode');
    const file = await c.service.configPath('vscode');
    await writeClientFile(file, '{ "servers": { "a": [ }');
    const bad = check(await runDoctor(c.doctor), 'client-config:vscode');
    expect(bad).toMatchObject({ status: 'error', detail: expect.stringMatching(/line 1, column \d+/), hint: expect.stringContaining('--rollback') });
  });

  it('warns when Claude Desktop from the Store ignores the %APPDATA% file, and copies the servers over', async () => {
    machine = await tempMachine('win32');
    const c = await open({});
    const classic = 'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json';
    const live = 'C:\\Users\\ada\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json';
    await writeClientFile(classic, { mcpServers: { notes: { command: 'C:\\tools\\notes.exe' } } });
    await writeClientFile(live, { mcpServers: {}, other: 1 });
    expect(await c.service.configPath('claude-desktop')).toBe(live);
    const warn = check(await runDoctor(c.doctor), 'client-msix:claude-desktop');
    expect(warn).toMatchObject({ status: 'warn', detail: expect.stringContaining('notes'), fix: { id: 'msix-sync:claude-desktop' } });
    await applyFix('msix-sync:claude-desktop', c.doctor);
    expect(JSON.parse(await readFile(machine.disk(live), 'utf8'))).toEqual({ mcpServers: { notes: { command: 'C:\\tools\\notes.exe' } }, other: 1 });
    expect((await runDoctor(c.doctor)).checks.some((x) => x.id === 'client-msix:claude-desktop')).toBe(false);
  });
});
