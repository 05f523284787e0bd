// @ts-check
/**
 * The throughput workload: many sessions calling in a loop for a fixed time, with the CPU each
 * process role used per call; and, from its rounds, what the inspector's capture costs.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { r2 } from '../lib/figures.mjs';
import { cpuByRole } from '../lib/proc.mjs';
import { median, spread } from '../lib/round-stats.mjs';
import { CALL_TIMEOUT_MS, echo, openSession, withTimeout } from '../lib/sdk-client.mjs';

/**
 * N sessions, each calling in a loop for a fixed time.
 * @param {import('../targets/common.mjs').Running} r
 * @param {import('./config.mjs').WorkloadConfig} cfg
 */
export async function throughputWorkload(r, cfg, seconds = cfg.tpMs / 1000) {
  const sessions = await Promise.all(Array.from({ length: cfg.tpSessions }, () => openSession(r)));
  let stop = false;
  let counting = false;
  let count = 0;
  /** @type {Error | undefined} */
  let failure;
  try {
    const loops = sessions.map(async (s, k) => {
      for (let i = 0; !stop; i++) {
        try {
          await echo(s.client, `s${k} ${i}`);
        } catch (err) {
          failure ??= /** @type {Error} */ (err);
          stop = true;
          return;
        }
        if (counting) count++;
      }
    });
    await sleep(cfg.tpWarmMs);
    counting = true;
    const t0 = performance.now();
    const cpu0 = cpuByRole(r.proc?.pid);
    await sleep(seconds * 1000);
    const counted = count;
    const elapsed = (performance.now() - t0) / 1000;
    const cpu1 = cpuByRole(r.proc?.pid);
    counting = false;
    stop = true;
    await withTimeout(Promise.all(loops), CALL_TIMEOUT_MS + 5000, 'draining the throughput loops');
    if (failure) throw failure;
    // CPU per call, by process role: where a target's cost lands on this machine's cores.
    // Negative: a child reaped outside the bench's tree took its CPU time with it (unknown).
    const perCall = (/** @type {'client' | 'server' | 'children'} */ k) =>
      cpu0 && cpu1 && counted > 0 && cpu1[k] >= cpu0[k]
        ? Math.round((1000 * (cpu1[k] - cpu0[k])) / counted)
        : undefined;
    const cpuUsPerCall = {
      client: perCall('client'),
      server: perCall('server'),
      children: perCall('children'),
    };
    return {
      sessions: sessions.length,
      seconds: r2(elapsed),
      calls: counted,
      callsPerSec: Math.round(counted / elapsed),
      cpuUsPerCall,
    };
  } finally {
    stop = true;
    await Promise.allSettled(sessions.map((s) => s.close()));
  }
}

/**
 * Capture's cost on the throughput workload from the rounds of `hub` and `hub-nocapture` (with
 * --repeat both run in every round, so each round gives a ratio: a median of those is steadier
 * than a ratio of the two medians, as a slow drift of the machine hits both sides of a round).
 * Undefined without both targets' rounds, or when retries made their counts differ.
 * @param {Record<string, any>} perRound
 * @returns {ReturnType<typeof spread> & { rounds: number, cpuUs: number } | undefined}
 */
export function captureCost(perRound) {
  /** @type {any[] | undefined} */
  const on = perRound.hub?.throughput;
  /** @type {any[] | undefined} */
  const off = perRound['hub-nocapture']?.throughput;
  if (!on || !off || on.length === 0 || on.length !== off.length) return undefined;
  const pct = on.map((x, i) => ((off[i].callsPerSec - x.callsPerSec) / off[i].callsPerSec) * 100);
  const cpu = on.map(
    (x, i) => (x.cpuUsPerCall?.server ?? NaN) - (off[i].cpuUsPerCall?.server ?? NaN),
  );
  return { rounds: pct.length, ...spread(pct), cpuUs: median(cpu) };
}
