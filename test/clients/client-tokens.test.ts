/**
 * Per-client tokens (issue 17) through the engine's API over real HTTP on loopback: an export
 * mints one token per client file (a preview mints none), each works on /mcp, a revoked one gets
 * 401 with a message that says what to do while the others and the hub token keep working, a
 * re-export gives a new one, no token value lies in the data dir, a client token does not open the
 * API, and the inspector names the session's client by its token.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InspectorSession } from '../../src/shared/api/inspector-contract.js';
import type { ClientToken } from '../../src/shared/api/settings-contract.js';
import { onCleanup } from '../helpers/cleanup.js';
import { initializeRequest } from '../helpers/json-rpc.js';
import { post } from '../helpers/mcp-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { waitFor } from '../helpers/waits.js';
import { tempMachine, type TempMachine } from './client-fixtures.js';
import { startClientsEngine, valueOf, type ClientsEngine } from './engine-fixture.js';

const CURSOR = (m: TempMachine): string => path.join(m.host.home, '.cursor', 'mcp.json');
const VSCODE = (m: TempMachine): string => path.join(m.host.home, '.config', 'Code', 'User', 'mcp.json');

/** The bearer token of the Patchbay entry in a client's JSON file. */
async function tokenIn(file: string, container: 'mcpServers' | 'servers'): Promise<string> {
  const data = JSON.parse(await readFile(file, 'utf8')) as Record<string, Record<string, { headers: { Authorization: string } }>>;
  const auth = data[container]!.probe!.headers.Authorization;
  const match = /^Bearer (\S+)$/.exec(auth);
  if (!match) throw new Error(`no bearer token in ${file}: ${auth.slice(0, 7)}…`);
  return match[1]!;
}

/** Initializes a session on /mcp/probe with this bearer token. */
function initialize(hub: ClientsEngine, token: string): Promise<Response> {
  const endpoint = { mcpUrl: (id: string) => `${hub.engine.url}/mcp/${id}`, authHeader: () => ({ Authorization: `Bearer ${token}` }) };
  return post(endpoint, 'probe', initializeRequest(1, '2025-06-18'));
}

async function exportClient(hub: ClientsEngine, client: string): Promise<void> {
  const preview = valueOf(await hub.call<{ baseHash: string }>('clients.previewExport', { client }));
  valueOf(await hub.call('clients.export', { client, baseHash: preview.baseHash }));
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('per-client tokens', () => {
  it('gives each exported client its own token; revoking one cuts off that client only', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const hub = await startClientsEngine(machine, { probe: probeServer() });

    // A preview shows a masked placeholder and mints nothing.
    const preview = valueOf(await hub.call<{ diff: string }>('clients.previewExport', { client: 'cursor' }));
    expect(preview.diff).toContain('"Authorization": "Bearer ••••••••"');
    expect(preview.diff).not.toMatch(/pbc_/);
    expect(valueOf(await hub.call<ClientToken[]>('settings.clientTokens'))).toEqual([]);

    await exportClient(hub, 'cursor');
    await exportClient(hub, 'vscode');
    const cursor = await tokenIn(CURSOR(machine), 'mcpServers');
    const vscode = await tokenIn(VSCODE(machine), 'servers');
    expect(cursor).toMatch(/^pbc_[A-Za-z0-9_-]{43}$/);
    expect(vscode).toMatch(/^pbc_[A-Za-z0-9_-]{43}$/);
    expect(cursor).not.toBe(vscode);
    expect(cursor).not.toBe(hub.token);

    // The API lists metadata only: never a value, never a hash.
    const listed = valueOf(await hub.call<ClientToken[]>('settings.clientTokens'));
    expect(listed.map((t) => [t.client, t.label, t.file]).sort()).toEqual([
      ['cursor', 'Cursor', CURSOR(machine)],
      ['vscode', 'VS Code', VSCODE(machine)],
    ]);
    const answer = JSON.stringify(listed);
    for (const secret of [cursor, vscode, cursor.slice(4), vscode.slice(4)]) expect(answer).not.toContain(secret);
    expect(answer).not.toMatch(/[0-9a-f]{64}/);

    // Both work; the hub token too.
    expect((await initialize(hub, cursor)).status).toBe(200);
    expect((await initialize(hub, vscode)).status).toBe(200);
    expect((await initialize(hub, hub.token)).status).toBe(200);

    // A second export of the same client keeps its token: nothing to write.
    const again = valueOf(await hub.call<{ changed: boolean }>('clients.previewExport', { client: 'cursor' }));
    expect(again.changed).toBe(false);

    // The data dir holds no token value (only hashes), in any file: logs, history, backups included.
    const dataFiles = await filesUnder(machine.dataDir);
    expect(dataFiles.map((f) => path.basename(f))).toContain('client-tokens.json');
    for (const file of dataFiles) {
      const text = await readFile(file, 'latin1');
      expect(text.includes(cursor) || text.includes(vscode) || text.includes(cursor.slice(4)) || text.includes(vscode.slice(4)), file).toBe(false);
    }

    // Revoke Cursor's: it gets 401 saying what happened and what to do; the others are untouched.
    const cursorId = listed.find((t) => t.client === 'cursor')!.id;
    const revoked = valueOf(await hub.call<ClientToken>('settings.revokeClientToken', { id: cursorId }));
    expect(revoked).toMatchObject({ id: cursorId, revoked: expect.any(String) });
    const refused = await initialize(hub, cursor);
    expect(refused.status).toBe(401);
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toBe("Unauthorized: this client token (Cursor) was revoked in Patchbay's Settings; export the client again (patchbay export cursor)");
    expect(JSON.stringify(body)).not.toContain(cursor);
    expect((await initialize(hub, vscode)).status).toBe(200);
    expect((await initialize(hub, hub.token)).status).toBe(200);
    expect(await hub.call('settings.revokeClientToken', { id: 'ffffffffff' })).toMatchObject({ ok: false, code: 'unknown_token' });

    // Exported again, Cursor gets a new token that works; the revoked one stays refused.
    await exportClient(hub, 'cursor');
    const renewed = await tokenIn(CURSOR(machine), 'mcpServers');
    expect(renewed).not.toBe(cursor);
    expect((await initialize(hub, renewed)).status).toBe(200);
    expect((await initialize(hub, cursor)).status).toBe(401);
  });

  it('does not let a client token into the API, and names the client by its token in the inspector', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const hub = await startClientsEngine(machine, { probe: probeServer() });
    await exportClient(hub, 'cursor');
    const cursor = await tokenIn(CURSOR(machine), 'mcpServers');

    const api = await fetch(`${hub.engine.url}/api/call/settings.clientTokens`, { method: 'POST', headers: { Authorization: `Bearer ${cursor}`, 'Content-Type': 'application/json' }, body: '{}' });
    expect(api.status).toBe(401);
    await api.body?.cancel();

    const opened = await initialize(hub, cursor);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    await opened.body?.cancel();
    // The same client with the hub token: a session with no token label.
    await (await initialize(hub, hub.token)).body?.cancel();

    const sessions = await waitFor(async () => {
      const list = valueOf(await hub.call<{ sessions: InspectorSession[] }>('inspector.sessions.list', { limit: 100 })).sessions;
      return list.filter((s) => s.server === 'probe' && s.client !== undefined).length === 2 ? list : undefined;
    }, 'both sessions in the inspector');
    const viaToken = sessions.filter((s) => s.principal === 'Cursor');
    expect(viaToken).toHaveLength(1);
    expect(viaToken[0]!.client?.name).toBe('patchbay-hub-test');
    expect(sessions.filter((s) => s.server === 'probe' && s.principal === undefined)).toHaveLength(1);

    // "last used" is noted without a write per request, and listed.
    const listed = valueOf(await hub.call<ClientToken[]>('settings.clientTokens'));
    expect(listed[0]!.lastUsed).toEqual(expect.any(String));
  });
});
