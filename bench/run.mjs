#!/usr/bin/env node
// @ts-check
/**
 * Patchbay benchmark: the same workloads, driven by the official SDK v2 client, against the SDK
 * client straight over stdio, the SDK's own Streamable HTTP server (the floor), the patchbay hub
 * (one child per session, or one shared child), supergateway and mcp-proxy; against the
 * 2026-07-28 ("modern") era (the SDK's own `createMcpHandler`, and the hub passing it through or
 * bridging it to a legacy server); and diagnostic rows that explain figures rather than compete.
 * bench/targets/index.mjs says what each target is, and how it is started and stopped.
 *
 * Workloads (bench/workloads/): small tools/call latency, 16-session throughput, 1 MiB results,
 * session open+close rate, memory per idle session (the hub, capture on and off, and the floor
 * measured the same way), a start-up burst (50 initializes at once through the hub vs 50 direct
 * spawns, bench/burst.mjs), and the relay direction (bench/relay.mjs, run in-process: `patchbay
 * relay` via a running hub and `--url` beside mcp-remote; cold start, latency, exit after stdin
 * closes). Every figure the issue's targets need comes out of one run; the Targets table at the
 * end judges them (bench/report/). Results go to stdout (tables) and to
 * bench/results/<timestamp>.json. See docs/performance.md.
 *
 *   npm run bench                      build, then the full run (≈ 6–7 min on 2 cores)
 *   node bench/run.mjs --quick         smoke run with small counts (≈ 3–5 min)
 *   node bench/run.mjs --only hub,sdk-http [--workloads latency,throughput]
 *   node bench/run.mjs --profile       CPU-profile the hub under the throughput workload
 *
 * Missed targets do not fail the run (it measures, it does not test). An error running a target
 * does (exit 1), except a peer that could not be installed: its rows say "unavailable".
 * Everything listens and connects on 127.0.0.1 only; every process started is stopped.
 *
 * This file: the options, which targets and workloads run, the run loop (rounds, measurements
 * taken again when disturbed, which one is reported), and the results.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ECHO, ECHO_RAW, REPO, RESULTS, timestamp } from './lib/paths.mjs';
import { cpuSnapshot, foreignCpuPct, killAllSync, sweepStrays } from './lib/proc.mjs';
import { FOREIGN_WARN, waitQuiet } from './lib/quiet.mjs';
import { clientErrors } from './lib/sdk-client.mjs';
import { checksSection, runChecks } from './report/checks.mjs';
import { machineInfo, versionsInfo } from './report/environment.mjs';
import { workloadTables } from './report/tables.mjs';
import { hubBuild, removeHubDataDirs } from './targets/hub.mjs';
import { targets } from './targets/index.mjs';
import { ensurePeers } from './targets/peers.mjs';
import { blobWorkload } from './workloads/blob.mjs';
import { burstRun } from './workloads/burst.mjs';
import { ONCE, WORKLOADS, workloadConfig } from './workloads/config.mjs';
import { latencyWorkload } from './workloads/latency.mjs';
import { memoryRuns } from './workloads/memory.mjs';
import { profileHub } from './workloads/profile.mjs';
import { relayRun } from './workloads/relay.mjs';
import { measureBoot, sessionsWorkload } from './workloads/sessions.mjs';
import { captureCost, throughputWorkload } from './workloads/throughput.mjs';

// ---------------------------------------------------------------------------------------------
// Options

const { values: opts } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    workloads: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'profile-seconds': { type: 'string' },
    'skip-install': { type: 'boolean', default: false },
    'mem-sessions': { type: 'string' },
    'mem-cycles': { type: 'string' },
    'wait-quiet': { type: 'string' },
    repeat: { type: 'string' },
    'retry-noisy': { type: 'string' },
    'hub-dir': { type: 'string' },
    'baseline-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

/** The figure a workload is judged by (for picking the median round with --repeat). */
const HEADLINE = /** @type {Record<string, string>} */ ({
  latency: 'p50',
  throughput: 'callsPerSec',
  blob: 'mibPerSec',
  'blob-json': 'mibPerSec',
  sessions: 'perSec',
});

if (opts.help) {
  console.log(`usage: node bench/run.mjs [--quick] [--only <target,...>] [--workloads <${WORKLOADS.join(',')}>]
                         [--profile [--profile-seconds N]] [--skip-install]
                         [--mem-sessions N] [--mem-cycles N] [--wait-quiet SECONDS] [--repeat N] [--retry-noisy N]
                         [--hub-dir DIR] [--baseline-dir DIR]
targets: stdio, sdk-http, sdk-http-json, hub, hub-shared, hub-nocapture, hub-otel, hub-otel-down, hub-remote, hub-rawecho, supergateway, supergateway-stateful, mcp-proxy,
         sdk-modern, hub-modern, hub-bridged (2026-07-28 era)
--wait-quiet S  before each target wait up to S s for other processes to leave the CPU idle
--repeat N      run every target N times, round-robin; each figure is the least disturbed one
--retry-noisy N measure a workload again (up to N times) while other processes disturb it
--hub-dir DIR   measure the hub build in DIR (bin/, dist/, package.json) instead of this repo's
--baseline-dir DIR  also measure the hub build in DIR as targets base, base-shared and
                base-nocapture, round-robin with hub, hub-shared and hub-nocapture: an old and a
                new build side by side in one run (e.g. a \`git worktree\` of main, built)
workloads: all by default. memory: the hub (shared mode, capture on, then off) and the floor
           (sdk-http), same method, same N (with --only: when it names hub-shared). burst, relay:
           with --only, when it names hub. relay: bench/relay.mjs in-process (--quick: 3 runs,
           100 calls), its tables and its targets in this run's output
--profile  instead of the workloads: run the hub under node --cpu-prof with the throughput workload
           (both modes) and the 1 MiB workload, and print where its CPU time goes (profiles are
           kept in bench/results/profile-<timestamp>/)`);
  process.exit(0);
}

const QUICK = opts.quick === true;
const CFG = workloadConfig(QUICK);
if (opts['mem-sessions']) CFG.memN = Number(opts['mem-sessions']);
if (opts['mem-cycles']) CFG.memCycles = Number(opts['mem-cycles']);
const RETRY_NOISY = Math.max(0, Math.floor(Number(opts['retry-noisy'] ?? 0)));
const WAIT_QUIET = Number(opts['wait-quiet'] ?? 0);
const untilQuiet = () => waitQuiet(WAIT_QUIET);

// ---------------------------------------------------------------------------------------------
// Cleanup: whatever happens, no process of ours outlives the harness.

process.on('exit', () => {
  killAllSync();
  removeHubDataDirs();
});
/** Every measurement taken so far, by target and workload: written out if the run is stopped. */
/** @type {Record<string, Record<string, any[]>>} */
const measurements = {};

for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(sig, () => {
    console.error(`\nbench: ${sig}, stopping every process it started`);
    killAllSync();
    if (Object.keys(measurements).length > 0) {
      try {
        const file = path.join(RESULTS, `${timestamp()}-partial.json`);
        writeFileSync(
          file,
          JSON.stringify(
            { date: new Date().toISOString(), stoppedBy: sig, measurements },
            null,
            2,
          ) + '\n',
        );
        console.error(`bench: measurements so far: ${path.relative(REPO, file)}`);
      } catch {
        // nothing more to save
      }
    }
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  hubBuild(opts['hub-dir']);
  mkdirSync(RESULTS, { recursive: true });
  if (opts.profile) return profileHub(CFG, Number(opts['profile-seconds'] ?? (QUICK ? 4 : 10)));

  const peers = ensurePeers({ skipInstall: opts['skip-install'] === true });
  const all = targets(peers, opts['baseline-dir']);
  const only = opts.only
    ? opts.only
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  for (const id of only ?? [])
    if (!all.some((t) => t.id === id))
      throw new Error(`--only: unknown target '${id}' (known: ${all.map((t) => t.id).join(', ')})`);
  const workloads = opts.workloads ? opts.workloads.split(',').map((s) => s.trim()) : WORKLOADS;
  for (const w of workloads)
    if (!WORKLOADS.includes(w))
      throw new Error(`--workloads: unknown workload '${w}' (known: ${WORKLOADS.join(', ')})`);
  const selected = all.filter((t) => !only || only.includes(t.id));

  const started = Date.now();
  /** @type {Record<string, any>} */
  const results = {};
  /** @type {string[]} */
  const errors = [];
  const rounds = Math.max(1, Math.floor(Number(opts.repeat ?? 1)));
  /** every round's figures, by target and workload */
  const perRound = measurements;
  for (const t of selected) {
    results[t.id] = { label: t.label };
    perRound[t.id] = {};
    if (t.peer && !peers[t.peer]?.ok) {
      results[t.id].unavailable = peers[t.peer]?.reason ?? 'not installed';
      console.error(`bench: ${t.id}: unavailable: ${results[t.id].unavailable}`);
    }
  }
  for (let round = 1; round <= rounds; round++) {
    for (const t of selected) {
      const row = results[t.id];
      if (row.unavailable || row.error) continue;
      const wanted = workloads.filter(
        (w) => !ONCE.includes(w) && (!t.workloads || t.workloads.includes(w)),
      );
      if (wanted.length === 0) continue;
      await untilQuiet();
      console.error(`bench: ${t.id}${rounds > 1 ? ` (round ${round}/${rounds})` : ''} …`);
      /** @type {import('./targets/common.mjs').Running | undefined} */
      let running;
      try {
        running = await t.start();
        for (const w of wanted) {
          if (w === 'sessions' && t.stateless) {
            row.sessions = { na: 'stateless: no sessions to open' };
            continue;
          }
          // With --retry-noisy N, a measurement that other processes disturbed is taken again
          // (up to N more times, after waiting for quiet); every attempt is kept.
          for (let attempt = 0; attempt <= RETRY_NOISY; attempt++) {
            if (attempt > 0) {
              console.error(`bench:   ${w}: disturbed by other processes; measuring again`);
              await waitQuiet(Math.max(10, WAIT_QUIET));
            }
            const t0 = Date.now();
            const cpu0 = cpuSnapshot();
            /** @type {Record<string, any>} */
            const figures =
              w === 'latency'
                ? await latencyWorkload(running, CFG)
                : w === 'throughput'
                  ? await throughputWorkload(running, CFG)
                  : w === 'blob' || w === 'blob-json'
                    ? await blobWorkload(running, CFG, w === 'blob-json')
                    : await sessionsWorkload(running, CFG);
            figures.foreignCpuPct = foreignCpuPct(cpu0, cpuSnapshot());
            const byWorkload = (perRound[t.id] ??= {});
            (byWorkload[w] ??= []).push(figures);
            console.error(
              `bench:   ${w}: ${JSON.stringify(figures)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
            );
            if (!(figures.foreignCpuPct > FOREIGN_WARN)) break;
          }
        }
      } catch (err) {
        const message = `${t.id}: ${/** @type {Error} */ (err).message}${running?.proc ? `\n  last output of ${running.proc.name}:\n    ${running.proc.tail.slice(-8).join('\n    ')}` : ''}`;
        row.error = /** @type {Error} */ (err).message;
        errors.push(message);
        console.error(`bench: ERROR ${message}`);
      } finally {
        await running
          ?.stop()
          .catch((err) => errors.push(`${t.id}: stopping it failed: ${err.message}`));
      }
    }
  }
  // With several measurements of a figure (--repeat, --retry-noisy), the one reported is the
  // least disturbed by other processes: among those under the noise threshold (or, if none is,
  // the quietest), the median of the headline metric. Every measurement is kept in the JSON.
  for (const [id, byWorkload] of Object.entries(perRound)) {
    for (const [w, list] of Object.entries(byWorkload)) {
      const key = HEADLINE[w] ?? 'n';
      const quiet = list.filter((x) => !(x.foreignCpuPct > FOREIGN_WARN));
      const pool =
        quiet.length > 0
          ? quiet
          : [[...list].sort((x, y) => (x.foreignCpuPct ?? 0) - (y.foreignCpuPct ?? 0))[0]];
      const sorted = [...pool].sort((x, y) => x[key] - y[key]);
      results[id][w] = { ...sorted[Math.floor((sorted.length - 1) / 2)] };
      if (list.length > 1) {
        results[id][w].rounds = list.map((x) => ({
          [key]: x[key],
          foreignCpuPct: x.foreignCpuPct,
        }));
      }
    }
  }

  // The workloads run once, not against each target.
  const once = { cfg: CFG, quiet: untilQuiet, errors };
  const { memory, memoryNoCapture, memoryFloor } =
    workloads.includes('memory') && (!only || only.includes('hub-shared'))
      ? await memoryRuns(once)
      : { memory: undefined, memoryNoCapture: undefined, memoryFloor: undefined };
  const burst =
    workloads.includes('burst') && (!only || only.includes('hub'))
      ? await burstRun(once)
      : undefined;
  const relay =
    workloads.includes('relay') && (!only || only.includes('hub'))
      ? await relayRun({
          quick: QUICK,
          skipInstall: opts['skip-install'] === true,
          quiet: untilQuiet,
          errors,
        })
      : undefined;

  /** @type {any} */
  let childBoot;
  if (
    workloads.includes('sessions') &&
    selected.some((t) => t.id.startsWith('hub') || t.id === 'stdio')
  ) {
    childBoot = { sdk: await measureBoot(ECHO), raw: await measureBoot(ECHO_RAW) };
    console.error(`bench: echo server boot: ${JSON.stringify(childBoot)}`);
  }

  const leftovers = sweepStrays();
  if (leftovers > 0)
    console.error(`bench: stopped ${leftovers} stray echo server(s) a gateway left behind`);

  /** @type {import('./report/tables.mjs').RunFigures} */
  const run = {
    results,
    measurements,
    all,
    selected,
    workloads,
    only,
    cfg: CFG,
    childBoot,
    memory,
    memoryNoCapture,
    memoryFloor,
    burst,
    relay,
  };
  const lines = workloadTables(run);
  const checks = runChecks(run);
  lines.push(...checksSection(checks));

  const machine = machineInfo();
  console.log(`\n## Patchbay benchmark — ${new Date().toISOString()}${QUICK ? ' (--quick)' : ''}`);
  console.log(
    `machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memGiB} GiB, ${machine.os}, node ${machine.node}; run took ${Math.round((Date.now() - started) / 1000)} s`,
  );
  console.log(lines.join('\n'));

  const versions = versionsInfo(peers, opts['hub-dir']);
  console.log(
    `\nbuild: patchbay ${versions.commit}${versions.srcDirty ? ' + uncommitted src/ changes' : ''}${versions.hubDir ? ` (hub from ${versions.hubDir})` : ''}; SDK client ${versions.sdkClient}, server ${versions.sdkServer}, node ${versions.sdkNode}; supergateway ${versions.supergateway ?? '–'}, mcp-proxy ${versions.mcpProxy ?? '–'}`,
  );
  const file = path.join(RESULTS, `${timestamp()}.json`);
  const tmp = `${file}.tmp`;
  writeFileSync(
    tmp,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        quick: QUICK,
        machine,
        versions,
        config: {
          ...CFG,
          repeat: Math.max(1, Math.floor(Number(opts.repeat ?? 1))),
          retryNoisy: RETRY_NOISY,
          waitQuiet: WAIT_QUIET,
        },
        workloads,
        results,
        childBoot,
        memory,
        memoryNoCapture,
        memoryFloor,
        burst,
        relay,
        measurements,
        captureCost: captureCost(measurements),
        checks,
        clientErrors: clientErrors(),
        errors,
      },
      null,
      2,
    ) + '\n',
  );
  renameSync(tmp, file);
  console.log(`\nresults: ${path.relative(REPO, file)}`);

  if (errors.length > 0) {
    console.error(`\nbench: ${errors.length} target(s) failed to run:\n  ${errors.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main()
  .catch((err) => {
    console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAllSync();
  });
