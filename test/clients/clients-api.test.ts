/**
 * The clients API over the engine's HTTP bridge: list, preview (with the file's hash), export
 * (refused when the file changed since the preview), the written event, doctor and fixes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/api/contract.js';
import { onCleanup } from '../helpers/cleanup.js';
import { everythingServer } from '../helpers/server-entries.js';
import { tempMachine } from './client-fixtures.js';
import { startClientsEngine, valueOf } from './engine-fixture.js';

describe('clients API', () => {
  it('lists, previews, writes only what was previewed, and reports writes', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const hub = await startClientsEngine(machine, { fixture: everythingServer() });
    const events: ApiEvent[] = [];
    const sub = hub.engine.api.subscribe((e) => events.push(e));
    onCleanup(() => sub.unsubscribe());

    const list = valueOf(await hub.call<Array<{ id: string; status: string; installed: boolean }>>('clients.list'));
    expect(list.map((c) => c.id)).toHaveLength(13);
    expect(list.find((c) => c.id === 'vscode')).toMatchObject({ status: 'missing', installed: false });

    const file = path.join(machine.host.home, '.config', 'Code', 'User', 'mcp.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{\n  // mine\n  "servers": {}\n}\n');
    const preview = valueOf(await hub.call<{ diff: string; baseHash: string; changes: Array<{ action: string }> }>('clients.previewExport', { client: 'vscode' }));
    expect(preview.changes).toEqual([{ server: 'fixture', entryName: 'fixture', action: 'add', kind: 'http' }]);
    expect(preview.diff).toContain(`+      "url": "${hub.engine.url}/mcp/fixture"`);
    expect(preview.diff).not.toContain(hub.token);

    // Someone edits the file between the preview and the write: the write is refused.
    await writeFile(file, '{\n  // mine, edited\n  "servers": {}\n}\n');
    const refused = await hub.call('clients.export', { client: 'vscode', baseHash: preview.baseHash });
    expect(refused).toMatchObject({ ok: false, code: 'client_config_changed' });
    expect(await readFile(file, 'utf8')).toContain('edited');

    const fresh = valueOf(await hub.call<{ baseHash: string }>('clients.previewExport', { client: 'vscode' }));
    const written = valueOf(await hub.call<{ written: boolean; backupId: string }>('clients.export', { client: 'vscode', baseHash: fresh.baseHash }));
    expect(written.written).toBe(true);
    expect(await readFile(file, 'utf8')).toContain('// mine, edited');
    expect(events.filter((e) => e.channel === 'clients.written').map((e) => e.payload)).toEqual([{ client: 'vscode', file, action: 'export' }]);

    const listed = valueOf(await hub.call<Array<{ id: string; entries: Array<{ name: string; patchbay: boolean; server?: string }> }>>('clients.list'));
    expect(listed.find((c) => c.id === 'vscode')?.entries).toEqual([{ name: 'fixture', kind: 'http', patchbay: true, server: 'fixture' }]);
  });

  it('runs the doctor and refuses fixes it does not offer; validates input', async () => {
    const machine = await tempMachine('linux');
    onCleanup(() => machine.cleanup());
    const hub = await startClientsEngine(machine, {});
    const report = valueOf(await hub.call<{ checks: Array<{ id: string; status: string }> }>('clients.doctor'));
    expect(report.checks.find((c) => c.id === 'hub')).toMatchObject({ status: 'ok' });
    expect(await hub.call('clients.fix', { fixId: 'reexport:cursor' })).toMatchObject({ ok: false, code: 'unknown_fix' });
    expect(await hub.call('clients.export', { client: 'notepad' })).toMatchObject({ ok: false, code: 'invalid_input' });
    expect(await hub.call('clients.rollback', { client: 'cursor' })).toMatchObject({ ok: false, code: 'no_backup' });
    expect(await hub.call('clients.rollback', { client: 'cursor', backupId: '../../etc/passwd' })).toMatchObject({ ok: false, code: 'no_backup' });
  });
});
