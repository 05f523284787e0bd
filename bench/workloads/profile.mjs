// @ts-check
/**
 * Profile mode (--profile), instead of the workloads: the hub under node --cpu-prof with the
 * throughput workload (both modes), the 1 MiB workload and sequential calls to a remote upstream, and where its CPU time goes
 * (bench/profile-summary.mjs). The profiles are kept in bench/results/profile-<timestamp>/.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, RESULTS, timestamp } from '../lib/paths.mjs';
import { formatSummary, summarizeProfile } from '../profile-summary.mjs';
import { hubBuild, startHub } from '../targets/hub.mjs';
import { blobWorkload } from './blob.mjs';
import { latencyWorkload } from './latency.mjs';
import { throughputWorkload } from './throughput.mjs';

/**
 * @param {import('./config.mjs').WorkloadConfig} cfg
 * @param {number} seconds  the throughput workload's measured time (--profile-seconds)
 */
export async function profileHub(cfg, seconds) {
  const stamp = timestamp();
  const dir = path.join(RESULTS, `profile-${stamp}`);
  mkdirSync(dir, { recursive: true });
  const out = [];
  const runs = [
    { name: 'hub-throughput', shared: false, workload: 'throughput' },
    { name: 'hub-shared-throughput', shared: true, workload: 'throughput' },
    { name: 'hub-blob', shared: false, workload: 'blob' },
    // The hub in front of the floor's own HTTP server, sequential calls: what its remote client adds per call.
    { name: 'hub-remote-latency', shared: false, workload: 'latency', remote: true },
  ];
  for (const run of runs) {
    const profDir = path.join(dir, run.name);
    const running = await startHub({ shared: run.shared, remote: run.remote === true })({
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir],
    });
    let figures;
    try {
      figures =
        run.workload === 'throughput'
          ? await throughputWorkload(running, cfg, seconds)
          : run.workload === 'latency'
            ? await latencyWorkload(running, cfg)
            : await blobWorkload(running, cfg);
    } finally {
      await running.stop(); // SIGTERM: the hub shuts down cleanly and node writes the profile
    }
    const files = existsSync(profDir)
      ? readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'))
      : [];
    if (files.length === 0) throw new Error(`no .cpuprofile was written to ${profDir}`);
    const file = path.join(profDir, /** @type {string} */ (files[0]));
    const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')), {
      top: 25,
      root: hubBuild(),
    });
    console.log(
      `\n=== ${run.name}: ${JSON.stringify(figures)} while profiled (${path.relative(REPO, file)}) ===`,
    );
    console.log(formatSummary(summary));
    out.push({ run: run.name, figures, profile: path.relative(REPO, file), summary });
  }
  const json = path.join(dir, 'summary.json');
  writeFileSync(json, JSON.stringify(out, null, 2) + '\n');
  console.log(`\nprofile summaries: ${path.relative(REPO, json)}`);
}
