/**
 * Per-client tokens (issue 17) from the command line, as real `patchbay` processes beside a
 * running hub on the same data dir: `export` mints a token into the client's file (the hub learns
 * of it from the store file), `tokens list` shows metadata only, `tokens revoke` cuts that client
 * off at the running hub while the others keep working, `doctor` tells a valid token from a
 * revoked one and says to export again, and a new export gives a new token.
 *
 * The processes run the compiled CLI (bin/patchbay.js → dist/), so it is built first.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { initializeRequest } from '../helpers/json-rpc.js';
import { post } from '../helpers/mcp-http.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { probeServer } from '../helpers/server-entries.js';
import { waitFor } from '../helpers/waits.js';
import { tempMachine, type TempMachine } from './client-fixtures.js';
import { startClientsEngine, type ClientsEngine } from './engine-fixture.js';
import { ensureBuilt } from '../helpers/built.js';

beforeAll(() => ensureBuilt(), 180_000);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `patchbay …` as its own process, on the machine's home and data dir. */
function patchbay(machine: TempMachine, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'bin', 'patchbay.js'), ...args, '--data-dir', machine.dataDir],
      { env: { PATH: process.env.PATH, HOME: machine.host.home, PATCHBAY_NO_LOGIN_SHELL: '1' }, timeout: 60_000, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

function initialize(hub: ClientsEngine, token: string): Promise<Response> {
  const endpoint = { mcpUrl: (id: string) => `${hub.engine.url}/mcp/${id}`, authHeader: () => ({ Authorization: `Bearer ${token}` }) };
  return post(endpoint, 'probe', initializeRequest(1, '2025-06-18'));
}

async function status(hub: ClientsEngine, token: string): Promise<number> {
  const res = await initialize(hub, token);
  await res.body?.cancel();
  return res.status;
}

async function tokenIn(file: string): Promise<string> {
  const match = /"Bearer (pbc_[A-Za-z0-9_-]{43})"/.exec(await readFile(file, 'utf8'));
  if (!match) throw new Error(`no client token in ${file}`);
  return match[1]!;
}

type Check = { id: string; status: string; detail?: string; fix?: { id: string } };
async function doctorCheck(machine: TempMachine, id: string): Promise<Check | undefined> {
  const run = await patchbay(machine, 'doctor', '--json');
  const report = JSON.parse(run.stdout) as { checks: Check[] };
  return report.checks.find((c) => c.id === id);
}

describe('patchbay tokens / export / doctor with per-client tokens', () => {
  it('mints at export, lists, revokes at the running hub, is checked by the doctor, and re-exports', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const hub = await startClientsEngine(machine, { probe: probeServer() });
    const cursorFile = path.join(machine.host.home, '.cursor', 'mcp.json');
    const vscodeFile = path.join(machine.host.home, '.config', 'Code', 'User', 'mcp.json');

    const exported = await patchbay(machine, 'export', 'cursor');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('"Authorization": "Bearer ••••••••"');
    const cursor = await tokenIn(cursorFile);
    expect(exported.stdout + exported.stderr).not.toContain(cursor);
    expect((await patchbay(machine, 'export', 'vscode')).code).toBe(0);
    const vscode = await tokenIn(vscodeFile);
    expect(vscode).not.toBe(cursor);
    // Minted by another process: the running hub takes them at once.
    expect(await status(hub, cursor)).toBe(200);
    expect(await status(hub, vscode)).toBe(200);

    const listed = await patchbay(machine, 'tokens', 'list', '--json');
    expect(listed.code).toBe(0);
    const tokens = JSON.parse(listed.stdout) as Array<{ id: string; client: string; label: string; file: string; revoked?: string }>;
    expect(tokens.map((t) => [t.client, t.file]).sort()).toEqual([
      ['cursor', cursorFile],
      ['vscode', vscodeFile],
    ]);
    expect(listed.stdout).not.toContain(cursor.slice(4));
    const table = await patchbay(machine, 'tokens', 'list');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+CLIENT\s+STATE\s+CREATED\s+LAST USED\s+FILE$/);
    expect(table.stdout).toMatch(/Cursor\s+active/);
    expect(await doctorCheck(machine, 'client-entries:cursor')).toMatchObject({ status: 'ok' });

    const cursorId = tokens.find((t) => t.client === 'cursor')!.id;
    const revoked = await patchbay(machine, 'tokens', 'revoke', cursorId);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain(`revoked the client token ${cursorId} of Cursor`);
    expect(revoked.stderr).toContain('patchbay export cursor');
    // The hub follows the store file: Cursor is refused within moments, saying why and what to do.
    await waitFor(async () => (await status(hub, cursor)) === 401, 'the running hub to refuse the revoked token');
    const refused = await initialize(hub, cursor);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('was revoked in Patchbay');
    expect(await status(hub, vscode)).toBe(200);
    expect(await status(hub, hub.token)).toBe(200);
    expect((await patchbay(machine, 'tokens', 'list')).stdout).toMatch(/Cursor\s+revoked/);

    const doctor = await doctorCheck(machine, 'client-entries:cursor');
    expect(doctor).toMatchObject({ status: 'error', fix: { id: 'reexport:cursor' } });
    expect(doctor?.detail).toContain('revoked');
    expect(doctor?.detail).toContain('export again');
    expect(await doctorCheck(machine, 'client-entries:vscode')).toMatchObject({ status: 'ok' });

    expect((await patchbay(machine, 'export', 'cursor')).code).toBe(0);
    const renewed = await tokenIn(cursorFile);
    expect(renewed).not.toBe(cursor);
    expect(await status(hub, renewed)).toBe(200);
    expect(await status(hub, cursor)).toBe(401);
    expect(await doctorCheck(machine, 'client-entries:cursor')).toMatchObject({ status: 'ok' });
  }, 120_000);

  it('refuses a bad or unknown id and documents itself', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const unknown = await patchbay(machine, 'tokens', 'revoke', 'abcdef0123');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("there is no client token with id 'abcdef0123'");
    const bad = await patchbay(machine, 'tokens', 'revoke', 'not-an-id');
    expect(bad.code).toBe(2);
    expect((await patchbay(machine, 'tokens', 'revoke')).code).toBe(2);
    const help = await patchbay(machine, 'tokens', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('patchbay tokens list');
    expect(help.stdout).toContain('patchbay tokens revoke');
    const empty = await patchbay(machine, 'tokens', 'list');
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('no client tokens yet');
  }, 60_000);
});
