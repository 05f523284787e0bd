/**
 * Issue 25, the audit trail through the API the UI uses (`audit.list`, `audit.verify`) against a
 * real engine: calls through the hub are listed newest first, filtered (client, server, method,
 * outcome family, time) and paged; the chain verifies, and an edited line is named with its file
 * and line; a line edited on disk cannot smuggle fields (an argument) into the answer.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditLineDto, AuditPageDto, AuditVerifyDto } from '../../src/shared/api/audit-contract.js';
import { dataPaths } from '../../src/main/core/home/paths.js';
import '../helpers/cleanup.js';
import { everythingServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';

async function call<T>(hub: TestHub, name: string, input: unknown): Promise<T> {
  const r = await hub.engine.api.invoke(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
  return r.value as T;
}

const brief = (l: AuditLineDto) => ({ server: l.server, what: `${l.method ?? ''} ${l.target ?? ''}`.trim(), outcome: l.outcome });

describe('audit.list and audit.verify', () => {
  it('lists the lines newest first, filtered and paged; verifies the chain and names an edited line', async () => {
    const hub = await startHub({ servers: { fx: everythingServer(), other: everythingServer() } });
    const fx = await connect(hub, 'fx');
    await fx.tool('echo', { text: 'first-argument' });
    await fx.callTool('no_such_tool');
    await fx.tool('echo', { text: 'third' });
    const other = await connect(hub, 'other');
    await other.tool('echo', { text: 'elsewhere' });

    // Exchanges reach the trail from the capture pipeline's drain: wait until all four calls are there.
    const all = await waitFor(async () => {
      const page = await call<AuditPageDto>(hub, 'audit.list', { method: 'tools/call' });
      return page.lines.length >= 4 ? page : undefined;
    }, 'four tools/call lines through audit.list');
    expect(all.lines.map(brief)).toEqual([
      { server: 'other', what: 'tools/call echo', outcome: 'ok' },
      { server: 'fx', what: 'tools/call echo', outcome: 'ok' },
      { server: 'fx', what: 'tools/call no_such_tool', outcome: 'error:jsonrpc' },
      { server: 'fx', what: 'tools/call echo', outcome: 'ok' },
    ]);
    expect(all).toMatchObject({ more: false, enabled: true, dir: dataPaths(hub.dataDir).auditDir });
    expect(JSON.stringify(all)).not.toContain('first-argument');

    const fxOnly = await call<AuditPageDto>(hub, 'audit.list', { server: 'fx', method: 'tools/call' });
    expect(fxOnly.lines.map((l) => l.server)).toEqual(['fx', 'fx', 'fx']);
    // `error` is the family of every error outcome.
    const errors = await call<AuditPageDto>(hub, 'audit.list', { outcome: 'error' });
    expect(errors.lines.map(brief)).toEqual([{ server: 'fx', what: 'tools/call no_such_tool', outcome: 'error:jsonrpc' }]);
    expect((await call<AuditPageDto>(hub, 'audit.list', { client: 'hub-token:patchbay-hub-test', server: 'other' })).lines.length).toBeGreaterThan(0);
    expect((await call<AuditPageDto>(hub, 'audit.list', { client: 'Cursor' })).lines).toEqual([]);
    expect((await call<AuditPageDto>(hub, 'audit.list', { since: new Date(Date.now() + 60_000).toISOString() })).lines).toEqual([]);
    expect((await call<AuditPageDto>(hub, 'audit.list', { until: '2000-01-01T00:00:00Z' })).lines).toEqual([]);

    // Paging: two at a time, each page older than the last line of the one before, nothing twice.
    const first = await call<AuditPageDto>(hub, 'audit.list', { method: 'tools/call', limit: 2 });
    expect(first.more).toBe(true);
    const second = await call<AuditPageDto>(hub, 'audit.list', { method: 'tools/call', limit: 2, before: first.lines.at(-1)!.seq });
    expect([...first.lines, ...second.lines].map((l) => l.seq)).toEqual(all.lines.map((l) => l.seq));
    expect(second.more).toBe(false);

    const bad = await hub.engine.api.invoke('audit.list', { since: 'yesterday-ish' });
    expect(bad).toMatchObject({ ok: false, code: 'invalid_input' });

    const intact = await call<AuditVerifyDto>(hub, 'audit.verify', {});
    expect(intact).toMatchObject({ ok: true, files: 1 });
    expect(intact.lines).toBeGreaterThanOrEqual(6);
    expect(intact.problem).toBeUndefined();

    // A line edited on disk: its outcome changed, and an argument slipped in.
    const file = path.join(dataPaths(hub.dataDir).auditDir, 'audit.jsonl');
    const rows = (await readFile(file, 'utf8')).trim().split('\n');
    const at = rows.findIndex((r) => r.includes('"no_such_tool"'));
    rows[at] = rows[at]!.replace('"outcome":"error:jsonrpc"', '"outcome":"ok","arguments":{"text":"smuggled"}');
    await writeFile(file, `${rows.join('\n')}\n`);
    const broken = await call<AuditVerifyDto>(hub, 'audit.verify', {});
    expect(broken).toMatchObject({ ok: false, problem: { file, line: at + 1, reason: expect.stringContaining('it was edited') } });
    const listed = await call<AuditPageDto>(hub, 'audit.list', {});
    expect(JSON.stringify(listed)).not.toContain('smuggled');
  }, 60_000);

  it('says where the files are and that nothing is recorded when the trail is off', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() }, config: { audit: { enabled: false } } });
    const fx = await connect(hub, 'fx');
    await fx.tool('echo', { text: 'unrecorded' });
    expect(await call<AuditPageDto>(hub, 'audit.list', {})).toEqual({ lines: [], more: false, enabled: false, dir: dataPaths(hub.dataDir).auditDir });
    expect(await call<AuditVerifyDto>(hub, 'audit.verify', {})).toEqual({ ok: true, lines: 0, files: 0, dir: dataPaths(hub.dataDir).auditDir });
  });
});
