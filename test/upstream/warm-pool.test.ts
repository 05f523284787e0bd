/**
 * The warm pool of a per-session server (src/main/core/upstream/warm-pool.ts) with real child
 * processes (the probe fixture): nothing before the first session, growth with a burst of opens
 * up to the cap and never past it, back down when the opens stop, nothing left once idle or
 * closed. Waits are bounded polls; no wall-clock figure is asserted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { StdioUpstream } from '../../src/main/core/upstream/stdio-upstream.js';
import { WarmPool } from '../../src/main/core/upstream/warm-pool.js';
import { isAlive } from '../helpers/processes.js';
import { PROBE_SERVER } from '../helpers/server-entries.js';
import { waitFor } from '../helpers/waits.js';

const started: StdioUpstream[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.close()));
});

function spawnProbe(): Promise<StdioUpstream> {
  const child = new StdioUpstream({ serverId: 'probe', command: process.execPath, args: [PROBE_SERVER], env: { PATH: process.env.PATH ?? '' } });
  started.push(child);
  return Promise.resolve(child);
}

describe('warm pool', () => {
  it('starts nothing before the first session; grows with a burst up to its cap; shrinks when the opens stop; idle, it stops its last spare', async () => {
    const pool = new WarmPool({ spawn: spawnProbe, max: 3, idleMs: 5000, windowMs: 1500 });
    expect(started.length).toBe(0);

    // One session: nothing to take yet; one spare behind it.
    expect(pool.take()).toBeUndefined();
    pool.refill();
    await waitFor(() => pool.size === 1, 'one spare');

    // A burst: every open after the first finds a spare, and the pool grows to the cap, no further.
    const taken: StdioUpstream[] = [];
    for (let i = 0; i < 6; i++) {
      const child = pool.take();
      if (child) taken.push(child);
      pool.refill();
      await waitFor(() => pool.size >= 1, 'a spare for the next open');
    }
    expect(taken.length).toBe(6);
    expect(new Set(taken).size).toBe(6);
    await waitFor(() => pool.size === 3, 'the pool at its cap');
    expect(started.length).toBe(1 + 6 + 2);

    // The opens stop: back to one spare once the window passed, then none once idle.
    await waitFor(() => pool.size === 1, 'the pool back to one spare', 10_000, 50);
    const last = started.filter((c) => !taken.includes(c) && !c.closed);
    expect(last.length).toBe(1);
    await waitFor(() => pool.size === 0, 'the idle pool empty', 15_000, 50);
    await waitFor(() => last[0]!.closed && !isAlive(last[0]!.pid!), 'the last spare stopped');
    await pool.close();
  }, 60_000);

  it('close() stops every spare, and a spawn that lands afterwards too', async () => {
    let release: (() => void) | undefined;
    const late = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const pool = new WarmPool({
      // The second spawn is held until after close(), like a spawn awaiting its secrets.
      spawn: async () => {
        if (++calls === 2) await late;
        return spawnProbe();
      },
      max: 2,
      idleMs: 60_000,
    });
    pool.take();
    pool.take();
    pool.refill();
    await waitFor(() => pool.size === 1, 'the first spare');
    const first = started[0]!;
    await pool.close();
    expect(first.closed).toBe(true);
    release!();
    await waitFor(() => started.length === 2 && started[1]!.closed, 'the late spare stopped as it landed');
    expect(pool.size).toBe(0);
  }, 30_000);
});
