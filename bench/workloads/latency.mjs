// @ts-check
/** The latency workload: small tools/call round trips, one after another, on one session. */
import { performance } from 'node:perf_hooks';
import { pct, r3 } from '../lib/figures.mjs';
import { echo, openSession } from '../lib/sdk-client.mjs';

/**
 * One session, sequential small calls.
 * @param {import('../targets/common.mjs').Running} r
 * @param {import('./config.mjs').WorkloadConfig} cfg
 */
export async function latencyWorkload(r, cfg) {
  const s = await openSession(r);
  try {
    const warmEnd = performance.now() + cfg.latWarmMaxMs;
    for (let i = 0; i < cfg.latWarm && performance.now() < warmEnd; i++)
      await echo(s.client, `warm ${i}`);
    /** @type {number[]} */
    const times = [];
    const end = performance.now() + cfg.latMaxMs;
    for (let i = 0; i < cfg.latN; i++) {
      const t0 = performance.now();
      await echo(s.client, `hello ${i}`);
      times.push(performance.now() - t0);
      if (performance.now() > end) break;
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      n: times.length,
      capped: times.length < cfg.latN,
      p50: r3(pct(sorted, 0.5)),
      p99: r3(pct(sorted, 0.99)),
      mean: r3(times.reduce((a, b) => a + b, 0) / times.length),
      max: r3(sorted[sorted.length - 1] ?? NaN),
    };
  } finally {
    await s.close();
  }
}
