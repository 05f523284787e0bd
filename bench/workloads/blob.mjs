// @ts-check
/**
 * The 1 MiB workloads: large results, one after another, on one session. `blob`: a text of `x`s;
 * `blob-json`: a text of JSON (a tool returning data as text), which in the message has an escaped
 * quote every few bytes — what anything that rewrites or quotes a message's text pays most for.
 */
import { performance } from 'node:perf_hooks';
import { pct, r2 } from '../lib/figures.mjs';
import { cpuByRole } from '../lib/proc.mjs';
import { blob, openSession } from '../lib/sdk-client.mjs';

const MiB = 1024 * 1024;

/**
 * One session, sequential 1 MiB results.
 * @param {import('../targets/common.mjs').Running} r
 * @param {import('./config.mjs').WorkloadConfig} cfg
 * @param {boolean} [json] results of JSON text (`blob-json`)
 */
export async function blobWorkload(r, cfg, json = false) {
  const s = await openSession(r);
  try {
    for (let i = 0; i < cfg.blobWarm; i++) await blob(s.client, MiB, json);
    /** @type {number[]} */
    const times = [];
    const cpu0 = cpuByRole(r.proc?.pid);
    const start = performance.now();
    for (let i = 0; i < cfg.blobN; i++) {
      const t0 = performance.now();
      await blob(s.client, MiB, json);
      times.push(performance.now() - t0);
      if (performance.now() - start > cfg.blobMaxMs) break;
    }
    const elapsed = (performance.now() - start) / 1000;
    const cpu1 = cpuByRole(r.proc?.pid);
    const sorted = [...times].sort((a, b) => a - b);
    const perCall = (/** @type {'client' | 'server' | 'children'} */ k) =>
      cpu0 && cpu1 && cpu1[k] >= cpu0[k] ? r2((cpu1[k] - cpu0[k]) / times.length) : undefined;
    return {
      calls: times.length,
      capped: times.length < cfg.blobN,
      seconds: r2(elapsed),
      mibPerSec: r2(times.length / elapsed),
      p50: r2(pct(sorted, 0.5)),
      cpuMsPerCall: {
        client: perCall('client'),
        server: perCall('server'),
        children: perCall('children'),
      },
    };
  } finally {
    await s.close();
  }
}
