/**
 * A hub that was SIGKILLed leaves its discovery file `hub.json` behind (issue 17 item 8). A relay
 * that starts afterwards must see that it is stale: remove it, and start a hub that writes a
 * fresh one. Real `patchbay serve` and `patchbay relay` processes from the built CLI.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { isAlive } from '../helpers/processes.js';
import { waitFor } from '../helpers/waits.js';
import { BIN, hubRecord, initialize, relayEnv, requireBuild, spawnRelay, stopProcess, tempHome, textOf, type HubRecord } from './relay-helpers.js';

beforeAll(requireBuild);

/** Starts `patchbay serve` for `home`, then SIGKILLs it: its hub.json stays behind. */
async function killedHub(home: string): Promise<HubRecord & { startedAt: string }> {
  const hub = spawn(process.execPath, [BIN, 'serve', '--data-dir', home], { env: relayEnv(home), stdio: ['ignore', 'ignore', 'ignore'] });
  onCleanup(() => (isAlive(hub.pid!) ? stopProcess(hub.pid!) : undefined));
  const record = (await waitFor(() => hubRecord(home), 'the hub to write hub.json', 20_000)) as HubRecord & { startedAt: string };
  const gone = new Promise((resolve) => hub.once('exit', resolve));
  hub.kill('SIGKILL');
  await gone;
  expect(existsSync(path.join(home, 'hub.json'))).toBe(true);
  return record;
}

describe('a stale hub.json', () => {
  it('is replaced: a relay started after the hub was SIGKILLed starts a new one, which works', async () => {
    const home = await tempHome();
    const dead = await killedHub(home);
    const relay = spawnRelay(home, ['fx']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'after the kill' } } });
    expect(textOf(await relay.answer(1, 30_000))).toBe('after the kill');
    const fresh = (await hubRecord(home)) as (HubRecord & { startedAt: string }) | undefined;
    expect(fresh?.pid).not.toBe(dead.pid);
    expect(isAlive(fresh!.pid)).toBe(true);
    expect(Date.parse(fresh!.startedAt)).toBeGreaterThan(Date.parse(dead.startedAt));
    const health = await fetch(`${fresh!.url}/health`);
    expect(health.status).toBe(200);
    expect(relay.junk).toEqual([]);
  }, 60_000);

  it('is removed even by a relay that may not start a hub (--no-start), which says what to do', async () => {
    const home = await tempHome();
    const dead = await killedHub(home);
    const relay = spawnRelay(home, ['fx', '--no-start']);
    relay.write(initialize(0));
    const answer = await relay.answer(0);
    expect((answer.error as { message: string }).message).toContain(`(pid ${dead.pid}) is not running`);
    expect((answer.error as { message: string }).message).toContain('patchbay serve');
    expect(existsSync(path.join(home, 'hub.json'))).toBe(false);
  }, 60_000);
});
