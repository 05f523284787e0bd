/**
 * A server's state against a real engine (issue 28, item 14): a failure is kept by every save or
 * reload that leaves its entry as it was, dropped when the entry changes (through the API or by
 * hand), and every status handed out is numbered so a snapshot taken before the failure is older
 * than the failure's event.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/shared/api/servers-contract.js';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { EVERYTHING_SERVER as FIXTURE } from '../helpers/server-entries.js';
import { startHub } from '../helpers/test-hub.js';

const BROKEN = '/nonexistent/pb-broken-command';

async function start() {
  const hub = await startHub({ servers: {} });
  const events: ServerStatus[] = [];
  hub.engine.api.subscribe((e) => {
    if (e.channel === 'servers.status') events.push(e.payload as ServerStatus);
  });
  // Loosely typed on purpose: each test reads the fields it checks.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const call = async <T = any>(name: string, input: unknown): Promise<T> => {
    const answer = await apiCall<T>(hub, name, input);
    if (!answer.ok) throw new Error(`${name}: ${answer.message}`);
    return answer.value as T;
  };
  const overview = async (): Promise<ServerStatus> => (await call<Array<{ status: ServerStatus }>>('servers.overview', {}))[0]!.status;
  /** A hand edit of config.json, read at once (as the watcher would, without waiting for it). */
  const editByHand = async (servers: Record<string, unknown>): Promise<void> => {
    await writeFile(hub.engine.configFile, JSON.stringify({ mcpServers: servers }, null, 2));
    await hub.engine.config.reload();
  };
  return { call, overview, events, editByHand };
}

describe('a server whose command was edited to a broken one', () => {
  it('keeps its error through a save and a reload that leave the entry as it was', async () => {
    const { call, overview, editByHand } = await start();
    await call('servers.add', { id: 'fx', config: { command: process.execPath, args: [FIXTURE] } });
    expect((await call('servers.test', { id: 'fx' })).ok).toBe(true);
    await call('servers.update', { id: 'fx', config: { command: BROKEN } });
    const test = await call('servers.test', { id: 'fx' });
    expect(test).toMatchObject({ ok: false, stage: 'initialize' });
    expect(await overview()).toMatchObject({ state: 'error', lastError: { stage: 'start', message: expect.stringContaining('command not found') } });

    // Save again without a change (the form's Save): the runtime is kept, and so is what it did.
    const saved = await call<{ status: ServerStatus }>('servers.update', { id: 'fx', config: { command: BROKEN } });
    expect(saved.status).toMatchObject({ state: 'error', lastError: { stage: 'start' } });
    // A reload of a file whose entry for fx is unchanged (another server added by hand).
    await editByHand({ fx: { command: BROKEN }, other: { command: BROKEN, disabled: true } });
    expect(await overview()).toMatchObject({ state: 'error', lastError: { stage: 'start' } });
  });

  it('starts over when the entry changes, by hand as through the API', async () => {
    const { call, overview, editByHand } = await start();
    await call('servers.add', { id: 'fx', config: { command: BROKEN } });
    await call('servers.test', { id: 'fx' });
    expect((await overview()).state).toBe('error');
    // The old runtime's failure does not describe the new command.
    await editByHand({ fx: { command: process.execPath, args: [FIXTURE] } });
    expect(await overview()).toMatchObject({ state: 'idle' });
    expect((await overview()).lastError).toBeUndefined();
  });

  it("numbers every status: one taken before the failure is older than the failure's event", async () => {
    const { call, overview, events } = await start();
    await call('servers.add', { id: 'fx', config: { command: process.execPath, args: [FIXTURE] } });
    await call('servers.update', { id: 'fx', config: { command: BROKEN } });
    const before = await overview();
    expect(before).toMatchObject({ state: 'idle', rev: expect.any(Number) });
    await call('servers.test', { id: 'fx' });
    const failed = events.find((e) => e.state === 'error');
    expect(failed?.rev).toBeGreaterThan(before.rev!);
    // The same status read again has the same number; every event is newer than the one before it.
    const after = await overview();
    expect(after.rev).toBeGreaterThanOrEqual(failed!.rev!);
    const revs = events.map((e) => e.rev!);
    expect(revs).toEqual([...revs].sort((a, b) => a - b));
    expect(new Set(revs).size).toBe(revs.length);
  });
});
