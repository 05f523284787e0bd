/**
 * How fast a relay is gone once its client closes stdin (issue 17's target: within 500 ms, for
 * `relay <server>` and `relay --url` alike). Real relay processes from the built CLI; the time
 * from closing stdin to the process's exit is printed, never asserted (this machine's load
 * decides it as much as the code). What is asserted: a clean exit, and the session gone.
 */
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { EVERYTHING_SERVER, everythingServer } from '../helpers/server-entries.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { initialize, requireBuild, spawnRelay, tempHome, textOf, type RelayProcess } from './relay-helpers.js';

beforeAll(requireBuild);

const RUNS = 3;

/** initialize, one call, then stdin closed: resolves with the ms from the close to the exit. */
async function closeAndTime(relay: RelayProcess): Promise<number> {
  relay.write(initialize(0));
  relay.write({ method: 'notifications/initialized' });
  relay.write({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
  expect(textOf(await relay.answer(1, 30_000))).toBe('x');
  const closed = performance.now();
  relay.child.stdin!.end();
  expect(await relay.exited()).toBe(0);
  return performance.now() - closed;
}

function report(what: string, times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${what}: gone ${sorted.map((t) => `${t.toFixed(0)} ms`).join(', ')} after stdin closed (median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms)`);
}

describe('a relay whose client closes stdin', () => {
  it('exits at once: relay <server> through a running hub', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const relay = spawnRelay(hub.dataDir, ['fx']);
      times.push(await closeAndTime(relay));
      // It deleted its session before going (P30).
      await waitFor(() => hub.engine.hub.sessions.size === 0, 'the session to be deleted');
    }
    report('relay <server>', times);
  }, 120_000);

  it('exits at once: relay --url, its embedded engine closed', async () => {
    const child = spawn(process.execPath, [EVERYTHING_SERVER, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    onCleanup(() => child.kill('SIGKILL'));
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (err += d));
    const url = (await waitFor(() => /^listening (\S+)$/m.exec(err), 'the fixture to listen'))[1]!;
    const home = await tempHome();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await closeAndTime(spawnRelay(home, ['--url', url])));
    report('relay --url', times);
  }, 120_000);
});
