/**
 * `patchbay sessions` and `patchbay tail` against a running hub, found through the discovery
 * file of its data dir and called with its token (the CLI runs in-process, the hub is real).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/run-cli.js';
import { probeServer } from '../helpers/server-entries.js';
import { cli } from '../helpers/cli-io.js';
import { connect } from '../helpers/test-client.js';
import { startCaptureHub, tempDataDir } from './inspector-harness.js';


describe('patchbay sessions / tail', () => {
  it('lists live sessions (and past ones with --all), as a table or JSON', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer(), other: probeServer() } });
    const client = await connect(hub, 'probe');
    await client.tool('echo', { text: 'x' });
    const gone = await connect(hub, 'other');
    await gone.delete();
    await hub.settle();

    const live = cli(hub.dataDir);
    expect(await runCli(['sessions'], live.io)).toBe(0);
    const lines = live.out().trim().split('\n');
    expect(lines[0]).toMatch(/^SESSION\s+SERVER\s+CLIENT\s+STATE\s+STARTED\s+DURATION\s+CALLS\s+ERRORS$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/probe\s+patchbay-hub-test 1\.0\.0\s+live\s+\S+\s+\S+\s+2\s+0$/);

    const all = cli(hub.dataDir);
    expect(await runCli(['sessions', '--all', '--json'], all.io)).toBe(0);
    const sessions = JSON.parse(all.out()) as Array<{ server: string; state: string }>;
    expect(sessions.map((s) => [s.server, s.state]).sort()).toEqual([
      ['other', 'closed'],
      ['probe', 'live'],
    ]);

    const bad = cli(hub.dataDir);
    expect(await runCli(['sessions', '--state', 'sleepy'], bad.io)).toBe(2);
    expect(bad.err()).toContain('--state must be live, closed or failed');
  });

  it('tails exchanges as they complete, one line each, filtered by server', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer(), other: probeServer() } });
    const client = await connect(hub, 'probe');
    const other = await connect(hub, 'other');
    const run = cli(hub.dataDir);
    const done = runCli(['tail', '--server', 'probe', '--count', '2'], run.io);
    // tail starts from the present: calls made before its stream is open are not shown, so keep
    // making calls until it printed two lines (bounded by a deadline).
    const started = Date.now();
    while (run.out().split('\n').filter(Boolean).length < 2 && Date.now() - started < 10_000) {
      await other.tool('echo', { text: 'not shown' });
      await client.tool('echo', { text: 'shown' });
      await client.request('tools/list');
    }
    expect(await done).toBe(0);
    const lines = run.out().trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\s+patchbay-hub-test\s+probe\s+(tools\/call|tools\/list)\s+[\d.]+ms\s+ok$/);
  });

  it('says what to do when no hub runs for the data dir', async () => {
    const dir = await tempDataDir();
    const run = cli(dir);
    expect(await runCli(['sessions'], run.io)).toBe(1);
    expect(run.err()).toMatch(/no hub is running .*start one with: patchbay serve/);
  });
});
