#!/usr/bin/env node
// @ts-check
/**
 * Patchbay benchmark: the same workloads, driven by the official SDK v2 client, against
 *
 *   stdio                  the SDK client straight to bench/echo-server.mjs over stdio (no HTTP)
 *   sdk-http               the SDK's own Streamable HTTP server in a separate process (the floor)
 *   hub                    patchbay hub (separate process) → echo server, one child per session
 *   hub-shared             patchbay hub, `shared: true`: one child multiplexed across sessions
 *   supergateway           supergateway, stdio → Streamable HTTP, its default (stateless) mode
 *   supergateway-stateful  supergateway --stateful (one child per session)
 *   mcp-proxy              punkpeye's mcp-proxy, stream endpoint (one shared child)
 *
 * and the 2026-07-28 ("modern") era, driven by the same client pinned to that revision:
 *
 *   sdk-modern             the SDK's own `createMcpHandler` (sessionless; the modern floor)
 *   hub-modern             patchbay hub → a dual-era echo server spoken to in 2026-07-28 (pass-through)
 *   hub-bridged            patchbay hub → the legacy echo server, bridged (a held 2025 session)
 *
 * and diagnostic rows that explain figures rather than compete:
 *
 *   sdk-http-json          the floor answering with application/json instead of SSE
 *   hub-nocapture          `hub` with the inspector's capture turned off (`inspector.enabled: false`)
 *   hub-rawecho            the hub, one child per session, with a hand-rolled echo server that
 *                          boots fast (session workload only)
 *   hub-1spare             `hub` with its warm pool capped at one spare (`warmSpare: 1`, what the
 *                          hub did before the pool grew with demand; session workload only)
 *
 * Workloads: small tools/call latency, 16-session throughput, 1 MiB results, session open+close
 * rate, memory per idle session (the hub, capture on and off, and the floor measured the same
 * way), a start-up burst (50 initializes at once through the hub vs 50 direct spawns,
 * bench/burst.mjs), and the relay direction (bench/relay.mjs, run in-process: `patchbay relay`
 * via a running hub and `--url` beside mcp-remote; cold start, latency, exit after stdin closes).
 * Every figure the issue's targets need comes out of one run; the Targets table at the end
 * judges them. Results go to stdout (tables) and to bench/results/<timestamp>.json. See
 * docs/performance.md.
 *
 *   npm run bench                      build, then the full run (≈ 6–7 min on 2 cores)
 *   node bench/run.mjs --quick         smoke run with small counts (≈ 3–5 min)
 *   node bench/run.mjs --only hub,sdk-http [--workloads latency,throughput]
 *   node bench/run.mjs --profile       CPU-profile the hub under the throughput workload
 *
 * Missed targets do not fail the run (it measures, it does not test). An error running a target
 * does (exit 1), except a peer that could not be installed: its rows say "unavailable".
 * Everything listens and connects on 127.0.0.1 only; every process started is stopped.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { median, spread } from './lib/round-stats.mjs';
import { beside, formatChecks, judge, table } from './lib/targets.mjs';
import { burstRound, formatBurst } from './burst.mjs';
import { formatRelay, relayChecks, runRelayBench } from './relay.mjs';
import { formatSummary, summarizeProfile } from './profile-summary.mjs';
import {
  RUN_MARK,
  cpuByRole,
  cpuSnapshot,
  foreignCpuPct,
  freePort,
  killAllSync,
  markedPids,
  processCpuMs,
  rssKiB,
  socketCount,
  startProcess,
  stopProcess,
  sweepStrays,
} from './lib/proc.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(BENCH, '..');
const ECHO = path.join(BENCH, 'echo-server.mjs');
const ECHO_RAW = path.join(BENCH, 'echo-server-raw.mjs');
const SDK_HTTP = path.join(BENCH, 'sdk-http-server.mjs');
const PEERS = path.join(BENCH, '.peers');
const RESULTS = path.join(BENCH, 'results');
const NODE = process.execPath;
const MiB = 1024 * 1024;

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

const WORKLOADS = ['latency', 'throughput', 'blob', 'sessions', 'memory', 'burst', 'relay'];
/** Workloads run once per run, after the per-target ones (not against each target). */
const ONCE = ['memory', 'burst', 'relay'];
/** The figure a workload is judged by (for picking the median round with --repeat). */
const HEADLINE = /** @type {Record<string, string>} */ ({
  latency: 'p50',
  throughput: 'callsPerSec',
  blob: 'mibPerSec',
  sessions: 'perSec',
});

if (opts.help) {
  console.log(`usage: node bench/run.mjs [--quick] [--only <target,...>] [--workloads <${WORKLOADS.join(',')}>]
                         [--profile [--profile-seconds N]] [--skip-install]
                         [--mem-sessions N] [--mem-cycles N] [--wait-quiet SECONDS] [--repeat N] [--retry-noisy N]
                         [--hub-dir DIR] [--baseline-dir DIR]
targets: stdio, sdk-http, sdk-http-json, hub, hub-shared, hub-nocapture, hub-rawecho, supergateway, supergateway-stateful, mcp-proxy,
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
/** Counts and time caps. Every loop is bounded by both a count and a wall-clock cap. */
const CFG = QUICK
  ? {
      latWarm: 20,
      latN: 200,
      latMaxMs: 4000,
      tpSessions: 16,
      tpWarmMs: 500,
      tpMs: 2000,
      blobWarm: 1,
      blobN: 10,
      blobMaxMs: 10_000,
      sessWarm: 2,
      sessN: 20,
      sessMaxMs: 4000,
      memN: 200,
      memOpenMaxMs: 30_000,
      memCycles: 2,
      burstN: 20,
    }
  : {
      latWarm: 100,
      latN: 1000,
      latMaxMs: 10_000,
      tpSessions: 16,
      tpWarmMs: 1000,
      tpMs: 5000,
      blobWarm: 3,
      blobN: 50,
      blobMaxMs: 15_000,
      sessWarm: 3,
      sessN: 100,
      sessMaxMs: 10_000,
      memN: 1000,
      memOpenMaxMs: 120_000,
      memCycles: 3,
      burstN: 50,
    };
if (opts['mem-sessions']) CFG.memN = Number(opts['mem-sessions']);
if (opts['mem-cycles']) CFG.memCycles = Number(opts['mem-cycles']);
const CALL_TIMEOUT_MS = 30_000;
/** Percent of the machine's CPU used by processes outside the bench above which a figure is flagged. */
const FOREIGN_WARN = 10;
const RETRY_NOISY = Math.max(0, Math.floor(Number(opts['retry-noisy'] ?? 0)));
const CONNECT_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// Cleanup: whatever happens, no process of ours outlives the harness.

/** Temporary data dirs of hubs still running; removed on any exit. @type {Set<string>} */
const tempDirs = new Set();
process.on('exit', () => {
  killAllSync();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
/** Every measurement taken so far, by target and workload: written out if the run is stopped. */
/** @type {Record<string, Record<string, any[]>>} */
const measurements = {};

/**
 * Capture's cost on the throughput workload from the rounds of `hub` and `hub-nocapture` (with
 * --repeat both run in every round, so each round gives a ratio: a median of those is steadier
 * than a ratio of the two medians, as a slow drift of the machine hits both sides of a round).
 * Undefined without both targets' rounds, or when retries made their counts differ.
 * @param {Record<string, any>} perRound
 * @returns {ReturnType<typeof spread> & { rounds: number, cpuUs: number } | undefined}
 */
function captureCost(perRound) {
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
// Peers (supergateway, mcp-proxy): installed under bench/.peers from its pinned package.json.

/** @typedef {{ name: string, version: string, bin: string, ok: boolean, reason?: string }} PeerInfo */

/** @returns {Record<string, PeerInfo>} */
function ensurePeers() {
  const manifest = JSON.parse(readFileSync(path.join(PEERS, 'package.json'), 'utf8'));
  /** @type {Record<string, string>} */
  const pins = manifest.dependencies;
  const installed = (/** @type {string} */ name) => {
    try {
      return JSON.parse(
        readFileSync(path.join(PEERS, 'node_modules', name, 'package.json'), 'utf8'),
      ).version;
    } catch {
      return undefined;
    }
  };
  let installError;
  const missing = Object.entries(pins).filter(([name, v]) => installed(name) !== v);
  if (missing.length > 0 && !opts['skip-install']) {
    console.error(
      `bench: installing peers into bench/.peers: ${missing.map(([n, v]) => `${n}@${v}`).join(', ')}`,
    );
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(
      npm,
      [
        'install',
        '--prefix',
        PEERS,
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      {
        cwd: PEERS,
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    if (r.status !== 0)
      installError =
        (r.error?.message ?? r.stderr ?? '').trim().split('\n').slice(-3).join(' ') ||
        `npm exited with ${r.status}`;
  }
  /** @type {Record<string, PeerInfo>} */
  const out = {};
  for (const [name, version] of Object.entries(pins)) {
    const have = installed(name);
    let bin = '';
    try {
      const pkg = JSON.parse(
        readFileSync(path.join(PEERS, 'node_modules', name, 'package.json'), 'utf8'),
      );
      const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[name];
      if (rel) bin = path.join(PEERS, 'node_modules', name, rel);
    } catch {
      // reported below
    }
    if (have === version && bin && existsSync(bin)) out[name] = { name, version, bin, ok: true };
    else
      out[name] = {
        name,
        version,
        bin,
        ok: false,
        reason:
          installError ??
          (have
            ? `installed ${have}, pinned ${version}`
            : `not installed (npm install --prefix bench/.peers)`),
      };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Targets

/**
 * @typedef {object} Running
 * @property {string} [url]                        Streamable HTTP endpoint
 * @property {{ command: string, args: string[] }} [stdio]
 * @property {import('./lib/proc.mjs').Proc} [proc] the server/gateway process
 * @property {'modern'} [era]                      the client speaks 2026-07-28 (default: 2025)
 * @property {() => Promise<void>} stop
 */
/**
 * @typedef {object} Target
 * @property {string} id
 * @property {string} label
 * @property {string} [peer]        npm package it needs from bench/.peers
 * @property {boolean} [stateless]  no sessions (session workload n/a)
 * @property {string[]} [workloads] only these workloads (a diagnostic row)
 * @property {string} [floor]       the row its "vs floor" ratios use (default sdk-http)
 * @property {(extra?: { nodeArgs?: string[], ipc?: boolean }) => Promise<Running>} start
 */

const echoArgs = [ECHO, RUN_MARK];
const ECHO_SHELL = [NODE, ...echoArgs].map((a) => `'${a}'`).join(' ');

/**
 * Waits until `url` answers 200, or the process dies, or 30 s pass.
 * @param {import('./lib/proc.mjs').Proc} proc @param {() => string | undefined} url
 */
async function waitReady(proc, url) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.done)
      throw new Error(
        `${proc.name} exited during startup:\n  ${proc.tail.slice(-10).join('\n  ')}`,
      );
    const u = url();
    if (u) {
      try {
        const res = await fetch(u, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        // not yet
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `${proc.name} did not become ready within 30 s:\n  ${proc.tail.slice(-10).join('\n  ')}`,
      );
    await sleep(50);
  }
}

/** @param {import('./lib/proc.mjs').Proc} proc */
function stopper(proc) {
  return async () => {
    await stopProcess(proc, { graceMs: 6000 });
    // Give a gateway's own shutdown a moment to reap children, then sweep what is left.
    for (let i = 0; i < 20 && markedPids().length > 0; i++) await sleep(100);
    sweepStrays();
  };
}

/** @param {{ shared: boolean, raw?: boolean, dualEra?: boolean, era?: 'modern', inspector?: Record<string, unknown>, build?: string, warmSpare?: number }} mode @returns {Target['start']} */
function startHub(mode) {
  return async (extra = {}) => {
    const build = mode.build ?? hubBuild();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-'));
    const server = {
      command: NODE,
      args: mode.raw ? [ECHO_RAW, RUN_MARK] : mode.dualEra ? [ECHO, '--dual-era', RUN_MARK] : echoArgs,
      ...(mode.shared ? { shared: true } : {}),
      ...(mode.warmSpare !== undefined ? { warmSpare: mode.warmSpare } : {}),
    };
    writeFileSync(
      path.join(dataDir, 'config.json'),
      JSON.stringify(
        { mcpServers: { echo: server }, ...(mode.inspector ? { inspector: mode.inspector } : {}) },
        null,
        2,
      ),
    );
    tempDirs.add(dataDir);
    /** @type {string | undefined} */
    let url;
    const proc = startProcess(
      mode.shared ? 'patchbay hub (shared)' : 'patchbay hub',
      NODE,
      [
        ...(extra.nodeArgs ?? []),
        path.join(build, 'bin', 'patchbay.js'),
        'serve',
        '--port',
        '0',
        '--no-auth',
      ],
      {
        cwd: build,
        env: { ...process.env, PATCHBAY_HOME: dataDir, PATCHBAY_NO_LOGIN_SHELL: '1' },
        ipc: extra.ipc,
        onLine: (line) => {
          const m = /hub running at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (m) url = m[1];
        },
      },
    );
    const stop = stopper(proc);
    try {
      await waitReady(proc, () => (url ? `${url}/health` : undefined));
    } catch (err) {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
      tempDirs.delete(dataDir);
      throw err;
    }
    return {
      url: `${url}/mcp/echo`,
      proc,
      ...(mode.era ? { era: mode.era } : {}),
      stop: async () => {
        await stop();
        rmSync(dataDir, { recursive: true, force: true });
        tempDirs.delete(dataDir);
      },
    };
  };
}

/** @param {boolean | 'modern'} json @returns {Target['start']} */
function startSdkHttp(json) {
  return () => startSdkHttpServer(json);
}

/**
 * @param {boolean | 'modern'} json true: JSON answers; 'modern': createMcpHandler
 * @param {{ nodeArgs?: string[], ipc?: boolean }} [extra] node flags (the memory workload's probe) and an IPC channel
 * @returns {Promise<Running>}
 */
async function startSdkHttpServer(json, extra = {}) {
  /** @type {number | undefined} */
  let port;
  const proc = startProcess(
    'SDK http server',
    NODE,
    [
      ...(extra.nodeArgs ?? []),
      SDK_HTTP,
      '--port',
      '0',
      ...(json === 'modern' ? ['--modern'] : json ? ['--json'] : []),
    ],
    {
      cwd: REPO,
      ipc: extra.ipc,
      onLine: (line) => {
        const m = /^listening (\d+)/.exec(line);
        if (m) port = Number(m[1]);
      },
    },
  );
  await waitReady(proc, () => (port ? `http://127.0.0.1:${port}/health` : undefined)).catch(
    async (err) => {
      await stopper(proc)();
      throw err;
    },
  );
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    proc,
    ...(json === 'modern' ? { era: /** @type {const} */ ('modern') } : {}),
    stop: stopper(proc),
  };
}

/** @param {Record<string, PeerInfo>} peers @param {boolean} stateful @returns {Target['start']} */
function startSupergateway(peers, stateful) {
  return async () => {
    const port = await freePort();
    // supergateway has no host flag and binds every interface: pin it to loopback with a preload.
    const args = [
      '--import',
      path.join(BENCH, 'lib', 'loopback-only.mjs'),
      peerBin(peers, 'supergateway'),
      '--stdio',
      ECHO_SHELL,
      '--outputTransport',
      'streamableHttp',
      '--port',
      String(port),
      '--logLevel',
      'none',
      '--healthEndpoint',
      '/healthz',
    ];
    if (stateful) args.push('--stateful');
    const proc = startProcess(stateful ? 'supergateway --stateful' : 'supergateway', NODE, args, {
      cwd: REPO,
    });
    await waitReady(proc, () => `http://127.0.0.1:${port}/healthz`).catch(async (err) => {
      await stopper(proc)();
      throw err;
    });
    return { url: `http://127.0.0.1:${port}/mcp`, proc, stop: stopper(proc) };
  };
}

/** @param {Record<string, PeerInfo>} peers @returns {Target['start']} */
function startMcpProxy(peers) {
  return async () => {
    const port = await freePort();
    const args = [
      peerBin(peers, 'mcp-proxy'),
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--server',
      'stream',
      '--',
      NODE,
      ...echoArgs,
    ];
    const proc = startProcess('mcp-proxy', NODE, args, { cwd: REPO });
    await waitReady(proc, () => `http://127.0.0.1:${port}/ping`).catch(async (err) => {
      await stopper(proc)();
      throw err;
    });
    return { url: `http://127.0.0.1:${port}/mcp`, proc, stop: stopper(proc) };
  };
}

/** @param {Record<string, PeerInfo>} peers @param {string} name */
function peerBin(peers, name) {
  const peer = peers[name];
  if (!peer?.ok) throw new Error(`${name} is not installed`);
  return peer.bin;
}

/** @param {Record<string, PeerInfo>} peers @returns {Target[]} */
function targets(peers) {
  const sg = peers.supergateway?.version ?? '?';
  const mp = peers['mcp-proxy']?.version ?? '?';
  return [
    {
      id: 'stdio',
      label: 'direct stdio (no HTTP)',
      start: async () => ({
        stdio: { command: NODE, args: echoArgs },
        stop: async () => void sweepStrays(),
      }),
    },
    { id: 'sdk-http', label: 'SDK Streamable HTTP server (floor)', start: startSdkHttp(false) },
    {
      id: 'sdk-http-json',
      label: 'SDK Streamable HTTP server, JSON responses (diagnostic)',
      workloads: ['latency', 'throughput', 'blob'],
      start: startSdkHttp(true),
    },
    { id: 'hub', label: 'patchbay hub, per-session child', start: startHub({ shared: false }) },
    { id: 'hub-shared', label: 'patchbay hub, shared child', start: startHub({ shared: true }) },
    {
      id: 'hub-nocapture',
      label: 'patchbay hub, per-session child, inspector capture off (diagnostic)',
      workloads: ['latency', 'throughput', 'blob'],
      start: startHub({ shared: false, inspector: { enabled: false } }),
    },
    {
      id: 'hub-rawecho',
      label: 'patchbay hub, per-session child, hand-rolled echo (diagnostic)',
      workloads: ['sessions'],
      start: startHub({ shared: false, raw: true }),
    },
    {
      // The warm pool capped at one spare: what the hub did before the pool grew with demand.
      id: 'hub-1spare',
      label: 'patchbay hub, per-session child, one warm spare (diagnostic)',
      workloads: ['sessions'],
      start: startHub({ shared: false, warmSpare: 1 }),
    },
    {
      id: 'supergateway',
      label: `supergateway ${sg} (default: stateless)`,
      peer: 'supergateway',
      stateless: true,
      start: startSupergateway(peers, false),
    },
    {
      id: 'supergateway-stateful',
      label: `supergateway ${sg} --stateful`,
      peer: 'supergateway',
      start: startSupergateway(peers, true),
    },
    {
      id: 'mcp-proxy',
      label: `mcp-proxy ${mp} (stream)`,
      peer: 'mcp-proxy',
      start: startMcpProxy(peers),
    },
    // The 2026-07-28 era: no sessions, so no session or memory workload.
    {
      id: 'sdk-modern',
      label: 'SDK createMcpHandler, 2026-07-28 (modern floor)',
      workloads: ['latency', 'throughput', 'blob'],
      stateless: true,
      start: startSdkHttp('modern'),
    },
    {
      id: 'hub-modern',
      label: 'patchbay hub, 2026-07-28 → dual-era server (pass-through)',
      workloads: ['latency', 'throughput', 'blob'],
      stateless: true,
      floor: 'sdk-modern',
      start: startHub({ shared: false, dualEra: true, era: 'modern' }),
    },
    {
      id: 'hub-bridged',
      label: 'patchbay hub, 2026-07-28 → legacy server (bridged)',
      workloads: ['latency', 'throughput', 'blob'],
      stateless: true,
      floor: 'sdk-modern',
      start: startHub({ shared: false, era: 'modern' }),
    },
    ...baselineTargets(),
  ];
}

/** `--baseline-dir`: the same hub rows for another build, to compare two builds in one run. */
function baselineTargets() {
  const dir = opts['baseline-dir'];
  if (!dir) return [];
  const build = path.resolve(dir);
  if (!existsSync(path.join(build, 'dist', 'main', 'cli', 'main.js'))) throw new Error(`--baseline-dir ${build}: no dist/main/cli/main.js there`);
  return [
    { id: 'base', label: 'baseline build, per-session child', start: startHub({ shared: false, build }) },
    { id: 'base-shared', label: 'baseline build, shared child', start: startHub({ shared: true, build }) },
    {
      id: 'base-nocapture',
      label: 'baseline build, per-session child, capture off (diagnostic)',
      workloads: ['latency', 'throughput', 'blob'],
      start: startHub({ shared: false, inspector: { enabled: false }, build }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Client sessions (official SDK v2 client)

let clientErrors = 0;

/**
 * @template T
 * @param {Promise<T>} p @param {number} ms @param {string} what
 * @returns {Promise<T>}
 */
async function withTimeout(p, ms, what) {
  let timer;
  try {
    return await Promise.race([
      p,
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** @param {Running} r */
async function openSession(r) {
  const client = new Client(
    { name: 'patchbay-bench', version: '1.0.0' },
    r.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  client.onerror = () => {
    clientErrors++;
  };
  const transport = r.stdio
    ? new StdioClientTransport({ ...r.stdio, stderr: 'ignore' })
    : new StreamableHTTPClientTransport(new URL(/** @type {string} */ (r.url)));
  try {
    await withTimeout(client.connect(transport), CONNECT_TIMEOUT_MS, 'initialize');
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  return {
    client,
    async close() {
      // A 2026-07-28 client has no session to end.
      if (transport instanceof StreamableHTTPClientTransport && r.era !== 'modern')
        await withTimeout(
          transport.terminateSession(),
          CONNECT_TIMEOUT_MS,
          'DELETE (terminate session)',
        );
      await client.close();
    },
  };
}

/** @param {Client} client @param {string} text */
async function echo(client, text) {
  const res = await client.callTool(
    { name: 'echo', arguments: { text } },
    { timeout: CALL_TIMEOUT_MS },
  );
  const got = /** @type {any} */ (res).content?.[0]?.text;
  if (got !== text) throw new Error(`echo returned ${JSON.stringify(res).slice(0, 200)}`);
}

/** @param {Client} client @param {number} bytes */
async function blob(client, bytes) {
  const res = await client.callTool(
    { name: 'blob', arguments: { bytes } },
    { timeout: CALL_TIMEOUT_MS },
  );
  const got = /** @type {any} */ (res).content?.[0]?.text;
  if (typeof got !== 'string' || got.length !== bytes)
    throw new Error(
      `blob returned ${typeof got === 'string' ? `${got.length} characters` : JSON.stringify(res).slice(0, 200)} instead of ${bytes}`,
    );
}

/** Nearest-rank percentile of a sorted array. @param {number[]} sorted @param {number} q */
function pct(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}
const r2 = (/** @type {number} */ x) => Math.round(x * 100) / 100;
const r3 = (/** @type {number} */ x) => Math.round(x * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// Workloads

/** One session, sequential small calls. @param {Running} r */
async function latencyWorkload(r) {
  const s = await openSession(r);
  try {
    const warmEnd = performance.now() + CFG.latMaxMs / 4;
    for (let i = 0; i < CFG.latWarm && performance.now() < warmEnd; i++)
      await echo(s.client, `warm ${i}`);
    /** @type {number[]} */
    const times = [];
    const end = performance.now() + CFG.latMaxMs;
    for (let i = 0; i < CFG.latN; i++) {
      const t0 = performance.now();
      await echo(s.client, `hello ${i}`);
      times.push(performance.now() - t0);
      if (performance.now() > end) break;
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      n: times.length,
      capped: times.length < CFG.latN,
      p50: r3(pct(sorted, 0.5)),
      p99: r3(pct(sorted, 0.99)),
      mean: r3(times.reduce((a, b) => a + b, 0) / times.length),
      max: r3(sorted[sorted.length - 1] ?? NaN),
    };
  } finally {
    await s.close();
  }
}

/** N sessions, each calling in a loop for a fixed time. @param {Running} r */
async function throughputWorkload(r, seconds = CFG.tpMs / 1000) {
  const sessions = await Promise.all(Array.from({ length: CFG.tpSessions }, () => openSession(r)));
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
    await sleep(CFG.tpWarmMs);
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

/** One session, sequential 1 MiB results. @param {Running} r */
async function blobWorkload(r) {
  const s = await openSession(r);
  try {
    for (let i = 0; i < CFG.blobWarm; i++) await blob(s.client, MiB);
    /** @type {number[]} */
    const times = [];
    const cpu0 = cpuByRole(r.proc?.pid);
    const start = performance.now();
    for (let i = 0; i < CFG.blobN; i++) {
      const t0 = performance.now();
      await blob(s.client, MiB);
      times.push(performance.now() - t0);
      if (performance.now() - start > CFG.blobMaxMs) break;
    }
    const elapsed = (performance.now() - start) / 1000;
    const cpu1 = cpuByRole(r.proc?.pid);
    const sorted = [...times].sort((a, b) => a - b);
    const perCall = (/** @type {'client' | 'server' | 'children'} */ k) =>
      cpu0 && cpu1 && cpu1[k] >= cpu0[k] ? r2((cpu1[k] - cpu0[k]) / times.length) : undefined;
    return {
      calls: times.length,
      capped: times.length < CFG.blobN,
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

/** Sequential open (initialize + initialized) and close (DELETE) of sessions. @param {Running} r */
async function sessionsWorkload(r) {
  for (let i = 0; i < CFG.sessWarm; i++) await (await openSession(r)).close();
  /** @type {number[]} */
  const opens = [];
  /** @type {number[]} */
  const closes = [];
  const cpu0 = cpuByRole(r.proc?.pid);
  const start = performance.now();
  while (opens.length < CFG.sessN && performance.now() - start < CFG.sessMaxMs) {
    const t0 = performance.now();
    const s = await openSession(r);
    const t1 = performance.now();
    await s.close();
    opens.push(t1 - t0);
    closes.push(performance.now() - t1);
  }
  const elapsed = (performance.now() - start) / 1000;
  const cpu1 = cpuByRole(r.proc?.pid);
  const so = [...opens].sort((a, b) => a - b);
  const sc = [...closes].sort((a, b) => a - b);
  // Where each session's CPU goes: the client, the hub (or gateway), and the children (booted,
  // spares included; a child still running counts what it used so far).
  const perSession = (/** @type {'client' | 'server' | 'children'} */ k) =>
    cpu0 && cpu1 && opens.length > 0 && cpu1[k] >= cpu0[k] ? Math.round((cpu1[k] - cpu0[k]) / opens.length) : undefined;
  return {
    sessions: opens.length,
    capped: opens.length < CFG.sessN,
    seconds: r2(elapsed),
    perSec: r2(opens.length / elapsed),
    openP50: r2(pct(so, 0.5)),
    openP99: r2(pct(so, 0.99)),
    closeP50: r2(pct(sc, 0.5)),
    cpuMsPerSession: { client: perSession('client'), server: perSession('server'), children: perSession('children') },
  };
}

/**
 * Memory per idle session of one server process: the hub (shared mode, in its own process) or
 * the floor (the SDK's own server), measured the same way. The process is started with
 * `--expose-gc` and the mem-probe preload (a full GC and `process.memoryUsage()` over IPC); its
 * RSS is read from /proc. Each idle session is a real SDK client (in a holder process,
 * bench/lib/session-holder.mjs) that has initialized, and so holds its standalone GET stream
 * open, and then does nothing. Repeated cycles of open-all / close-all show whether memory
 * returns flat.
 * @param {Target['start']} start  the server to measure
 * @param {number} [sessions]      idle sessions per cycle (default: --mem-sessions)
 */
async function memoryWorkload(start, sessions = CFG.memN) {
  const running = await start({
    nodeArgs: ['--expose-gc', '--import', path.join(BENCH, 'lib', 'mem-probe.mjs')],
    ipc: true,
  });
  const proc = /** @type {import('./lib/proc.mjs').Proc} */ (running.proc);
  /** @returns {Promise<{ rssKiB: number, heapUsedKiB: number, heapTotalKiB: number, externalKiB: number, sockets: number | undefined, gc: boolean }>} */
  const measure = async () => {
    await sleep(500);
    const usage = await withTimeout(
      new Promise((resolve) => {
        /** @param {any} m */
        const onMessage = (m) => {
          if (m?.probe !== 'mem') return;
          proc.child.off('message', onMessage);
          resolve(m);
        };
        proc.child.on('message', onMessage);
        proc.child.send({ probe: 'mem' });
      }),
      10_000,
      'memory probe',
    );
    await sleep(200);
    const u = /** @type {any} */ (usage).usage;
    const kib = (/** @type {number} */ b) => Math.round(b / 1024);
    return {
      rssKiB: rssKiB(proc.pid) ?? NaN,
      heapUsedKiB: kib(u.heapUsed),
      heapTotalKiB: kib(u.heapTotal),
      externalKiB: kib(u.external),
      sockets: socketCount(proc.pid),
      gc: /** @type {any} */ (usage).gc,
    };
  };
  /** Waits until the hub holds no more sockets than at baseline (bounded at 15 s). @param {number | undefined} baseline */
  const waitSocketsDrained = async (baseline) => {
    if (baseline === undefined) return sleep(1000);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && (socketCount(proc.pid) ?? 0) > baseline) await sleep(100);
  };
  /** A holder process with `n` idle sessions; resolves once they are open. @param {number} n */
  const hold = async (n) => {
    const holder = startProcess(
      'session holder',
      NODE,
      [
        path.join(BENCH, 'lib', 'session-holder.mjs'),
        /** @type {string} */ (running.url),
        String(n),
        String(CFG.memOpenMaxMs),
      ],
      { cwd: REPO, ipc: true },
    );
    /** @type {any[]} */
    const inbox = [];
    /** @type {(() => void) | undefined} */
    let wake;
    holder.child.on('message', (m) => {
      inbox.push(m);
      wake?.();
    });
    const next = async (/** @type {number} */ ms) => {
      const deadline = Date.now() + ms;
      while (inbox.length === 0) {
        if (holder.done)
          throw new Error(`the session holder exited: ${holder.tail.slice(-5).join(' | ')}`);
        if (Date.now() > deadline)
          throw new Error(`the session holder did not answer within ${ms} ms`);
        await new Promise((resolve) => {
          wake = () => resolve(undefined);
          setTimeout(resolve, 250);
        });
      }
      const m = inbox.shift();
      if (m.error) throw new Error(m.error);
      return m;
    };
    try {
      const opened = await next(CFG.memOpenMaxMs + 60_000);
      return {
        opened,
        close: async () => {
          holder.child.send('close');
          const closed = await next(60_000);
          await withTimeout(holder.exited, 10_000, 'session holder exit');
          return closed;
        },
        kill: () => stopProcess(holder, { graceMs: 1000 }),
      };
    } catch (err) {
      await stopProcess(holder, { graceMs: 1000 });
      throw err;
    }
  };
  try {
    // Warm up: the shared child is started and every code path has run once.
    const warm = await hold(20);
    await warm.close();
    await waitSocketsDrained(undefined);
    const baseline = await measure();
    const cycles = [];
    let target = sessions;
    let slow = '';
    for (let c = 0; c < CFG.memCycles; c++) {
      const h = await hold(target);
      try {
        if (h.opened.opened < target) {
          slow = `opening ${target} sessions took over ${CFG.memOpenMaxMs / 1000} s; measured with ${h.opened.opened}`;
          target = h.opened.opened;
        }
        const withSessions = await measure();
        const closed = await h.close();
        await waitSocketsDrained(baseline.sockets);
        const after = await measure();
        cycles.push({
          sessions: h.opened.opened,
          openSeconds: r2(h.opened.seconds),
          closeSeconds: r2(closed.seconds),
          open: withSessions,
          closed: after,
        });
      } finally {
        await h.kill();
      }
    }
    const first = cycles[0];
    const last = cycles[cycles.length - 1];
    if (!first || !last) throw new Error('no memory cycle ran');
    const n = first.sessions;
    const kbPerSession = (first.open.rssKiB - baseline.rssKiB) / n;
    const heapKbPerSession = (first.open.heapUsedKiB - baseline.heapUsedKiB) / n;
    // Flat = what the sessions used is given back and nothing accumulates. Judged on the live JS
    // heap (after a full GC, with no session and no connection left), per session so that it
    // scales with the count: after the last cycle at most 2 KiB per session is still held over
    // the baseline, and the last cycle added at most 0.25 KiB per session (earlier cycles also
    // warm up JIT code and tables; the floors absorb a few hundred KiB of that noise). RSS is
    // reported next to it, but it keeps its high-water mark (V8 keeps the grown heap committed
    // and malloc keeps freed pages), so it is not what a leak check can read.
    const heapGrowthKiB = last.closed.heapUsedKiB - baseline.heapUsedKiB;
    const prev = cycles[cycles.length - 2] ?? { closed: baseline };
    const heapCreepLastKiB = last.closed.heapUsedKiB - prev.closed.heapUsedKiB;
    const heapCreepPerCycleKiB =
      cycles.length > 1
        ? Math.round((last.closed.heapUsedKiB - first.closed.heapUsedKiB) / (cycles.length - 1))
        : heapGrowthKiB;
    const rssResidueKiB = last.closed.rssKiB - baseline.rssKiB;
    const rssCreepKiB = last.closed.rssKiB - prev.closed.rssKiB;
    const flat =
      heapGrowthKiB <= Math.max(1024, 2 * n) && heapCreepLastKiB <= Math.max(256, 0.25 * n);
    const retainedKbPerSessionCycle = r2(heapCreepLastKiB / n);
    return {
      sessions: n,
      note: slow || undefined,
      baseline,
      cycles,
      kbPerSession: r2(kbPerSession),
      heapKbPerSession: r2(heapKbPerSession),
      heapGrowthKiB,
      heapCreepPerCycleKiB,
      heapCreepLastKiB,
      retainedKbPerSessionCycle,
      rssResidueKiB,
      rssCreepKiB,
      flat,
    };
  } finally {
    await running.stop();
  }
}

/**
 * How long one echo server takes to boot: spawn → its answer to `initialize`, wall time and the
 * CPU time it used by then (median of 5). This bounds any one-child-per-session design.
 * @param {string} file
 */
async function measureBoot(file, n = 5) {
  /** @type {number[]} */
  const walls = [];
  /** @type {number[]} */
  const cpus = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const child = spawn(NODE, [file, RUN_MARK], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const answered = new Promise((resolve, reject) => {
        child.stdout.once('data', resolve);
        child.once('exit', () =>
          reject(new Error(`${path.basename(file)} exited before answering initialize`)),
        );
      });
      child.stdin.write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'patchbay-bench', version: '1.0.0' },
          },
        }) + '\n',
      );
      await withTimeout(answered, 10_000, `booting ${path.basename(file)}`);
      walls.push(performance.now() - t0);
      const cpu = processCpuMs(/** @type {number} */ (child.pid));
      if (cpu !== undefined) cpus.push(cpu);
    } finally {
      const exited = new Promise((resolve) =>
        child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve),
      );
      child.stdin.end();
      await withTimeout(exited, 5000, 'echo server exit').catch(() => child.kill('SIGKILL'));
    }
  }
  return { n, wallMs: r2(median(walls)), cpuMs: cpus.length ? r2(median(cpus)) : undefined };
}

// ---------------------------------------------------------------------------------------------
// Profile mode

async function profileHub() {
  const seconds = Number(opts['profile-seconds'] ?? (QUICK ? 4 : 10));
  const stamp = timestamp();
  const dir = path.join(RESULTS, `profile-${stamp}`);
  mkdirSync(dir, { recursive: true });
  const out = [];
  const runs = [
    { name: 'hub-throughput', shared: false, workload: 'throughput' },
    { name: 'hub-shared-throughput', shared: true, workload: 'throughput' },
    { name: 'hub-blob', shared: false, workload: 'blob' },
  ];
  for (const run of runs) {
    const profDir = path.join(dir, run.name);
    const running = await startHub({ shared: run.shared })({
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profDir],
    });
    let figures;
    try {
      figures =
        run.workload === 'throughput'
          ? await throughputWorkload(running, seconds)
          : await blobWorkload(running);
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

// ---------------------------------------------------------------------------------------------
// Output

/** ×floor ratio text. @param {number | undefined} v @param {number | undefined} floor */
function ratio(v, floor) {
  if (
    v === undefined ||
    floor === undefined ||
    !Number.isFinite(v) ||
    !Number.isFinite(floor) ||
    floor === 0
  )
    return '–';
  return `${(v / floor).toFixed(2)}×`;
}

function timestamp() {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
}

// ---------------------------------------------------------------------------------------------
// Main

/**
 * With --wait-quiet S: before each target, wait up to S seconds for the machine to be quiet
 * (other processes using under FOREIGN_WARN% of its CPU over 2 s), so a shared machine's other
 * work does not land in the figures. Figures taken anyway are flagged with † in the tables.
 */
async function waitQuiet(seconds = Number(opts['wait-quiet'] ?? 0)) {
  const limit = seconds * 1000;
  if (!(limit > 0)) return;
  const deadline = Date.now() + limit;
  for (let first = true; ; first = false) {
    const a = cpuSnapshot();
    await sleep(2000);
    const busy = foreignCpuPct(a, cpuSnapshot());
    if (busy === undefined || busy < FOREIGN_WARN) return;
    if (first)
      console.error(
        `bench: other processes use ${busy}% of the CPU; waiting up to ${limit / 1000} s for quiet`,
      );
    if (Date.now() > deadline) {
      console.error(
        `bench: still ${busy}% busy with other work; measuring anyway (figures flagged †)`,
      );
      return;
    }
  }
}

/** @type {string | undefined} */
let buildSnapshot;

/**
 * The hub build this run measures: a private copy of bin/ and dist/ taken at start (with the
 * repo's package.json and node_modules linked in), so a rebuild in the working tree while the
 * bench runs cannot change or break what is being measured half-way.
 */
function hubBuild() {
  if (buildSnapshot) return buildSnapshot;
  if (opts['hub-dir']) {
    // Another build to measure (a branch, an experiment): a directory with bin/, dist/ and a
    // package.json, whose imports resolve (a node_modules there or above it).
    const dir = path.resolve(opts['hub-dir']);
    if (!existsSync(path.join(dir, 'dist', 'main', 'cli', 'main.js'))) {
      throw new Error(`--hub-dir ${dir}: no dist/main/cli/main.js there`);
    }
    buildSnapshot = dir;
    return dir;
  }
  if (!existsSync(path.join(REPO, 'dist', 'main', 'cli', 'main.js'))) {
    throw new Error(
      'the hub is not built: run `npm run build` (or `npm run bench`, which builds first)',
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-build-'));
  cpSync(path.join(REPO, 'dist'), path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(REPO, 'bin'), path.join(dir, 'bin'), { recursive: true });
  cpSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  buildSnapshot = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function main() {
  hubBuild();
  mkdirSync(RESULTS, { recursive: true });
  if (opts.profile) return profileHub();

  const peers = ensurePeers();
  const all = targets(peers);
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
      await waitQuiet();
      console.error(`bench: ${t.id}${rounds > 1 ? ` (round ${round}/${rounds})` : ''} …`);
      /** @type {Running | undefined} */
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
              await waitQuiet(Math.max(10, Number(opts['wait-quiet'] ?? 0)));
            }
            const t0 = Date.now();
            const cpu0 = cpuSnapshot();
            /** @type {Record<string, any>} */
            const figures =
              w === 'latency'
                ? await latencyWorkload(running)
                : w === 'throughput'
                  ? await throughputWorkload(running)
                  : w === 'blob'
                    ? await blobWorkload(running)
                    : await sessionsWorkload(running);
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

  /** @type {any} the default hub (capture on) */
  let memory;
  /** @type {any} the same with the inspector's capture off (what "memory flat" is judged on) */
  let memoryNoCapture;
  /** @type {any} the floor (sdk-http), measured the same way with the same N */
  let memoryFloor;
  if (workloads.includes('memory') && (!only || only.includes('hub-shared'))) {
    const variants = /** @type {const} */ (['capture on', 'capture off', 'floor']);
    for (const variant of variants) {
      await waitQuiet();
      // The floor gets the N the hub was measured with (fewer if opening them hit the time cap).
      const n = variant === 'floor' && memory?.sessions > 0 ? memory.sessions : CFG.memN;
      console.error(
        variant === 'floor'
          ? `bench: floor (sdk-http) memory per idle session, ${n} sessions …`
          : `bench: hub memory per idle session (shared mode, ${variant}) …`,
      );
      /** @type {any} */
      let m;
      try {
        m = await memoryWorkload(
          variant === 'floor'
            ? (extra) => startSdkHttpServer(false, extra)
            : startHub({
                shared: true,
                inspector: variant === 'capture on' ? undefined : { enabled: false },
              }),
          n,
        );
        console.error(`bench:   memory: ${m.kbPerSession} KB/session (RSS), flat: ${m.flat}`);
      } catch (err) {
        m = { error: /** @type {Error} */ (err).message };
        errors.push(`memory (${variant}): ${/** @type {Error} */ (err).message}`);
      }
      if (variant === 'capture on') memory = m;
      else if (variant === 'capture off') memoryNoCapture = m;
      else memoryFloor = m;
    }
  }

  // N initializes at once through the hub vs N direct spawns of the same server (bench/burst.mjs).
  /** @type {any} */
  let burst;
  if (workloads.includes('burst') && (!only || only.includes('hub'))) {
    await waitQuiet();
    console.error(`bench: start-up burst (${CFG.burstN} initializes at once, hub vs direct spawns) …`);
    try {
      burst = await burstRound({ server: ECHO, sessions: CFG.burstN, build: hubBuild() });
    } catch (err) {
      burst = { error: /** @type {Error} */ (err).message };
      errors.push(`burst: ${/** @type {Error} */ (err).message}`);
    }
  }

  // The relay direction (bench/relay.mjs), in-process, against the same build snapshot.
  /** @type {any} */
  let relay;
  if (workloads.includes('relay') && (!only || only.includes('hub'))) {
    await waitQuiet();
    console.error('bench: relay direction (bench/relay.mjs) …');
    try {
      relay = await runRelayBench({
        quick: QUICK,
        skipInstall: opts['skip-install'] === true,
        build: hubBuild(),
        log: (line) => console.error(line),
      });
      if (relay.failed) {
        const failed = Object.entries(relay.results)
          .filter(([, r]) => /** @type {any} */ (r).error)
          .map(([id, r]) => `${id}: ${/** @type {any} */ (r).error}`);
        errors.push(`relay: ${failed.join('; ')}`);
      }
    } catch (err) {
      relay = { error: /** @type {Error} */ (err).message };
      errors.push(`relay: ${/** @type {Error} */ (err).message}`);
    }
  }

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

  // ---- tables
  const floor = results['sdk-http'];
  /** The row a target's "vs floor" ratios use. @param {string} id */
  const floorOf = (id) => results[all.find((t) => t.id === id)?.floor ?? 'sdk-http'];
  const idsFor = (/** @type {string} */ w) =>
    selected.filter((t) => !t.workloads || t.workloads.includes(w)).map((t) => t.id);
  const oneLine = (/** @type {string} */ t) => {
    const flat = t.replace(/\s+/g, ' ').trim();
    return flat.length > 90 ? `${flat.slice(0, 89)}…` : flat;
  };
  const status = (/** @type {any} */ row, /** @type {string} */ w) =>
    row.unavailable
      ? oneLine(`unavailable: ${row.unavailable}`)
      : row.error && !row[w]
        ? oneLine(`error: ${row.error}`)
        : row[w]?.na
          ? `n/a (${row[w].na})`
          : undefined;
  const lines = [];
  const cap = (/** @type {any} */ x) =>
    `${x?.capped ? '*' : ''}${x?.foreignCpuPct > FOREIGN_WARN ? '†' : ''}`;
  if (workloads.includes('latency')) {
    lines.push(
      `\n### Small tools/call latency (1 session, ${CFG.latN} sequential calls after ${CFG.latWarm} warm-up)\n`,
    );
    lines.push(
      table(
        ['target', 'calls', 'p50 ms', 'p99 ms', 'mean ms', 'p50 vs floor', 'p99 vs floor'],
        idsFor('latency').map((id) => {
          const row = results[id];
          const x = row.latency;
          const s = status(row, 'latency');
          return s
            ? [row.label, s, '', '', '', '', '']
            : [
                row.label,
                `${x.n}${cap(x)}`,
                x.p50,
                x.p99,
                x.mean,
                ratio(x.p50, floorOf(id)?.latency?.p50),
                ratio(x.p99, floorOf(id)?.latency?.p99),
              ];
        }),
      ),
    );
  }
  if (workloads.includes('throughput')) {
    lines.push(
      `\n### Throughput (${CFG.tpSessions} concurrent sessions, calls in a loop for ${CFG.tpMs / 1000} s after ${CFG.tpWarmMs / 1000} s warm-up)\n`,
    );
    lines.push(
      table(
        [
          'target',
          'calls',
          'calls/s',
          'vs floor',
          'CPU µs/call: client',
          'server/gateway',
          'stdio children',
          'total',
        ],
        idsFor('throughput').map((id) => {
          const row = results[id];
          const x = row.throughput;
          const s = status(row, 'throughput');
          const c = x?.cpuUsPerCall ?? {};
          const total =
            c.client !== undefined
              ? (c.client ?? 0) + (c.server ?? 0) + (c.children ?? 0)
              : undefined;
          return s
            ? [row.label, s, '', '', '', '', '', '']
            : [
                row.label,
                `${x.calls}${cap(x)}`,
                x.callsPerSec,
                ratio(x.callsPerSec, floorOf(id)?.throughput?.callsPerSec),
                c.client ?? '?',
                c.server ?? '–',
                c.children ?? '–',
                total ?? '?',
              ];
        }),
      ),
    );
    lines.push(
      '\nCPU µs/call: CPU time used during the measured window divided by the calls completed, for the bench process (the SDK clients), the server or gateway process itself, and every stdio child (10 ms tick resolution).',
    );
    const capture = captureCost(measurements);
    if (capture) {
      const signed = (/** @type {number} */ x) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}%`;
      lines.push(
        `\nCapture's cost, \`hub\` against \`hub-nocapture\`, round by round (both ran in every round, a new process each): throughput ${signed(capture.median)} (median of ${capture.rounds} rounds; middle half ${signed(capture.q1)} to ${signed(capture.q3)}${capture.ci95 ? `; 95% confidence interval of the median ${signed(capture.ci95.low)} to ${signed(capture.ci95.high)}` : ''}), hub CPU per call ${capture.cpuUs >= 0 ? '+' : '−'}${Math.abs(capture.cpuUs)} µs (median). One round moves by several points; bench/capture-cost.mjs is the dedicated benchmark.`,
      );
    }
  }
  if (workloads.includes('blob')) {
    lines.push(`\n### 1 MiB results (1 session, ${CFG.blobN} sequential calls of blob 1 MiB)\n`);
    lines.push(
      table(
        [
          'target',
          'calls',
          'MiB/s',
          'p50 ms/call',
          'vs floor',
          'CPU ms/call: client',
          'server/gateway',
          'stdio children',
        ],
        idsFor('blob').map((id) => {
          const row = results[id];
          const x = row.blob;
          const s = status(row, 'blob');
          const c = x?.cpuMsPerCall ?? {};
          return s
            ? [row.label, s, '', '', '', '', '', '']
            : [
                row.label,
                `${x.calls}${cap(x)}`,
                x.mibPerSec,
                x.p50,
                ratio(x.mibPerSec, floorOf(id)?.blob?.mibPerSec),
                c.client ?? '?',
                c.server ?? '–',
                c.children ?? '–',
              ];
        }),
      ),
    );
  }
  if (workloads.includes('sessions')) {
    lines.push(
      `\n### Session open + close rate (sequential; initialize + initialized, then DELETE; up to ${CFG.sessN} or ${CFG.sessMaxMs / 1000} s)\n`,
    );
    lines.push(
      table(
        [
          'target',
          'sessions',
          'sessions/s',
          'open p50 ms',
          'open p99 ms',
          'close p50 ms',
          'vs floor',
        ],
        idsFor('sessions').map((id) => {
          const row = results[id];
          const x = row.sessions;
          const s = status(row, 'sessions');
          return s
            ? [row.label, s, '', '', '', '', '']
            : [
                row.label,
                `${x.sessions}${cap(x)}`,
                x.perSec,
                x.openP50,
                x.openP99,
                x.closeP50,
                ratio(x.perSec, floor?.sessions?.perSec),
              ];
        }),
      ),
    );
    const cpuNotes = idsFor('sessions').flatMap((id) => {
      const c = results[id].sessions?.cpuMsPerSession;
      return c ? [`${id}: client ${c.client ?? '?'} ms, server/hub ${c.server ?? '?'} ms, children ${c.children ?? '?'} ms`] : [];
    });
    if (cpuNotes.length) lines.push(`\nCPU per session opened and closed: ${cpuNotes.join('; ')}.`);
    if (childBoot) {
      lines.push(
        `\nBooting one echo server (spawn → initialize answered, median of ${childBoot.sdk.n}): SDK echo-server.mjs ${childBoot.sdk.wallMs} ms wall / ${childBoot.sdk.cpuMs} ms CPU; hand-rolled echo-server-raw.mjs ${childBoot.raw.wallMs} ms wall / ${childBoot.raw.cpuMs} ms CPU. With one child per session, ${os.availableParallelism()} cores can boot at most ≈ ${Math.floor((1000 * os.availableParallelism()) / Math.max(1, childBoot.sdk.cpuMs))} SDK children per second.`,
      );
    }
  }
  const memoryTable = (
    /** @type {any} */ m,
    /** @type {string} */ title,
    /** @type {string} */ scope,
  ) => {
    if (!m) return;
    if (m.error) {
      lines.push(`\n### ${title}\n\nerror: ${m.error}`);
      return;
    }
    lines.push(
      `\n### ${title} (${scope}; ${m.sessions} SDK clients, each initialized with its GET stream open)\n`,
    );
    const rows = [
      [
        'baseline (after warm-up)',
        m.baseline.rssKiB,
        m.baseline.heapUsedKiB,
        m.baseline.heapTotalKiB,
        m.baseline.sockets ?? '?',
        '',
      ],
    ];
    m.cycles.forEach((/** @type {any} */ c, /** @type {number} */ i) => {
      rows.push([
        `cycle ${i + 1}: ${c.sessions} open`,
        c.open.rssKiB,
        c.open.heapUsedKiB,
        c.open.heapTotalKiB,
        c.open.sockets ?? '?',
        `opened in ${c.openSeconds} s`,
      ]);
      rows.push([
        `cycle ${i + 1}: all closed`,
        c.closed.rssKiB,
        c.closed.heapUsedKiB,
        c.closed.heapTotalKiB,
        c.closed.sockets ?? '?',
        `closed in ${c.closeSeconds} s`,
      ]);
    });
    lines.push(table(['state', 'RSS KiB', 'heap used KiB', 'heap total KiB', 'sockets', ''], rows));
    const sign = (/** @type {number} */ x) => `${x >= 0 ? '+' : ''}${x}`;
    lines.push(
      `\nPer idle session: ${m.kbPerSession} KiB of RSS, ${m.heapKbPerSession} KiB of live JS heap (heap read after a full GC).`,
    );
    lines.push(
      `After the last cycle (every session and connection gone): live heap ${sign(m.heapGrowthKiB)} KiB from baseline, ${sign(m.heapCreepLastKiB)} KiB in the last cycle (${sign(m.retainedKbPerSessionCycle)} KiB per session) → ${m.flat ? 'flat' : 'NOT flat'}; RSS ${sign(m.rssResidueKiB)} KiB from baseline (${sign(m.rssCreepKiB)} KiB in the last cycle).${m.note ? ` Note: ${m.note}.` : ''}`,
    );
  };
  memoryTable(memory, 'Hub memory per idle session, capture on', 'shared mode, hub process only');
  memoryTable(
    memoryNoCapture,
    'Hub memory per idle session, inspector capture off',
    'shared mode, hub process only',
  );
  memoryTable(
    memoryFloor,
    'Floor memory per idle session, sdk-http, measured the same way',
    'the SDK server process',
  );
  if (memory?.kbPerSession !== undefined && memoryFloor?.kbPerSession !== undefined)
    lines.push(
      `\nRSS per idle session: hub (capture on) ${memory.kbPerSession} KiB, hub (capture off) ${memoryNoCapture?.kbPerSession ?? '–'} KiB, floor ${memoryFloor.kbPerSession} KiB.`,
    );
  if (burst) lines.push(`\n### Start-up burst\n`, burst.error ? `error: ${burst.error}` : formatBurst(burst));
  if (relay) {
    lines.push(
      `\n### Relay: a stdio client → the SDK's Streamable HTTP server (bench/relay.mjs)\n`,
      relay.error ? `error: ${relay.error}` : formatRelay(relay),
    );
  }
  if (lines.some((l) => /\d\*/.test(l)))
    lines.push("\n`*` the count was cut short by the workload's time cap.");
  const noisy = Object.entries(results).flatMap(([id, row]) =>
    WORKLOADS.filter((w) => !ONCE.includes(w) && row[w]?.foreignCpuPct > FOREIGN_WARN).map(
      (w) => `${id}/${w} ${row[w].foreignCpuPct}%`,
    ),
  );
  if (noisy.length > 0)
    lines.push(
      `\n\`†\` other processes on this machine used over ${FOREIGN_WARN}% of its CPU during that measurement (${noisy.join(', ')}): treat it as noisy and re-run.`,
    );

  // ---- targets: the issue's, as it states them, then the harness's own extra checks
  /** @type {import('./lib/targets.mjs').Check[]} */
  const checks = [];
  const notRun = (/** @type {string} */ what) => `${what} not in this run`;
  /** @type {Array<[string, string]>} */
  const modes = [
    ['hub', 'per-session'],
    ['hub-shared', 'shared'],
  ];
  for (const [id, m] of modes) {
    const h = results[id];
    if (!h && only) continue;
    const missing = (/** @type {string} */ w) => h?.unavailable ?? h?.error ?? notRun(`${id} ${w}`);
    checks.push(
      judge({
        target: `${m}: tools/call p50 ≤ 0.8× floor`,
        value: h?.latency?.p50,
        unit: 'ms',
        dir: '<=',
        ratioGoal: 0.8,
        ref: floor?.latency?.p50,
        refName: 'floor',
        missing: missing('latency'),
      }),
      judge({
        target: `${m}: calls/s (${CFG.tpSessions} sessions) ≥ 1.2× floor`,
        value: h?.throughput?.callsPerSec,
        unit: 'calls/s',
        dir: '>=',
        ratioGoal: 1.2,
        ref: floor?.throughput?.callsPerSec,
        refName: 'floor',
        missing: missing('throughput'),
      }),
      judge({
        target: `${m}: 1 MiB results (MiB/s) ≥ 1.0× floor`,
        value: h?.blob?.mibPerSec,
        unit: 'MiB/s',
        dir: '>=',
        ratioGoal: 1.0,
        ref: floor?.blob?.mibPerSec,
        refName: 'floor',
        missing: missing('blob'),
      }),
    );
  }
  if (!only || results.hub)
    checks.push(
      judge({
        target: 'per-session: new sessions/s ≥ 20',
        value: results.hub?.sessions?.perSec,
        unit: 'sessions/s',
        dir: '>=',
        limit: 20,
        missing: results.hub?.error ?? notRun('hub sessions'),
      }),
    );
  if (burst || !only || only.includes('hub'))
    checks.push(
      judge({
        target: `${burst?.sessions ?? CFG.burstN} sessions opened at once ≤ 1.2× ${burst?.sessions ?? CFG.burstN} direct spawns (last answer)${(burst?.sessions ?? CFG.burstN) !== 50 ? ' (the issue: 50)' : ''}`,
        value: burst?.hub?.last,
        unit: 'ms',
        dir: '<=',
        ratioGoal: 1.2,
        ref: burst?.direct?.last,
        refName: 'direct',
        missing: burst?.error ?? notRun('burst'),
      }),
    );
  if (memory || memoryFloor || !only || only.includes('hub-shared'))
    checks.push(
      judge({
        target: `hub RSS per idle session ≤ floor's (capture on; ${memory?.sessions ?? CFG.memN} sessions)`,
        value: memory?.kbPerSession,
        unit: 'KiB',
        dir: '<=',
        ratioGoal: 1.0,
        ref: memoryFloor?.kbPerSession,
        refName: 'floor',
        missing: memory?.error ?? notRun('memory'),
      }),
    );
  if (relay || !only || only.includes('hub'))
    checks.push(...relayChecks(relay?.error ? undefined : relay, { missing: relay?.error ?? notRun('relay') }));

  // The harness's own checks, beside the issue's.
  for (const [id, m] of modes) {
    const h = results[id];
    if (!h) continue;
    checks.push(
      judge({
        target: `${m}: tools/call p99 ≤ floor`,
        value: h.latency?.p99,
        unit: 'ms',
        dir: '<=',
        ratioGoal: 1.0,
        ref: floor?.latency?.p99,
        refName: 'floor',
        missing: h.error ?? 'latency not in this run',
        extra: true,
      }),
    );
  }
  if (results['hub-shared'])
    checks.push(
      judge({
        target: 'shared: new sessions/s ≥ 80',
        value: results['hub-shared'].sessions?.perSec,
        unit: 'sessions/s',
        dir: '>=',
        limit: 80,
        missing: results['hub-shared'].error ?? 'sessions not in this run',
        extra: true,
      }),
    );
  if (memory && !memory.error)
    checks.push(
      judge({
        target: 'hub RSS per idle session ≤ 64 KiB (capture on)',
        value: memory.kbPerSession,
        unit: 'KiB',
        dir: '<=',
        limit: 64,
        extra: true,
      }),
    );
  // Flat is judged with capture off: with capture on, the inspector keeps closed sessions'
  // records by design (bounded by its caps), so its heap growth is a figure beside, not a leak.
  if (memoryNoCapture || memory) {
    const sign = (/** @type {number} */ x) => `${x >= 0 ? '+' : ''}${x}`;
    const off = memoryNoCapture && !memoryNoCapture.error ? memoryNoCapture : undefined;
    const on = memory && !memory.error ? memory : undefined;
    const onText = on
      ? `beside, capture on (no verdict: the inspector keeps closed sessions' records, capped): heap ${sign(on.heapGrowthKiB)} KiB, last cycle ${sign(on.heapCreepLastKiB)} KiB`
      : '';
    if (off)
      checks.push({
        target: `memory flat after ${off.sessions} sessions come and go (${off.cycles.length}×), capture off`,
        goal: '≤ 2 KiB/session held, ≤ 0.25 KiB/session per cycle',
        measured: `heap ${sign(off.heapGrowthKiB)} KiB, last cycle ${sign(off.heapCreepLastKiB)} KiB (${sign(off.retainedKbPerSessionCycle)}/session)${onText ? `; ${onText}` : ''}`,
        ratio: '–',
        met: off.flat,
        result: off.flat
          ? 'MET, the heap returns; RSS keeps its high-water mark'
          : `MISSED, ${sign(off.heapGrowthKiB)} KiB held (limit ${Math.max(1024, 2 * off.sessions)}), last cycle ${sign(off.heapCreepLastKiB)} KiB (limit ${Math.max(256, 0.25 * off.sessions)})`,
        extra: true,
      });
    else
      checks.push(
        beside({
          target: 'memory flat after sessions come and go, capture off',
          goal: '≤ 2 KiB/session held, ≤ 0.25 KiB/session per cycle',
          measured: onText || '–',
          ratio: '–',
          result: `not measured (${memoryNoCapture?.error ?? 'capture-off run missing'})`,
          extra: true,
        }),
      );
  }
  if (checks.length > 0) {
    lines.push('\n### Targets (issue 17; "(extra)": the harness\'s own checks)\n');
    lines.push(formatChecks(checks));
    const judged = checks.filter((c) => !c.extra && c.met !== undefined);
    lines.push(
      `\nIssue targets: ${judged.filter((c) => c.met).length} met, ${judged.filter((c) => !c.met).length} missed, ${checks.filter((c) => !c.extra && c.result.startsWith('not measured')).length} not measured.`,
    );
  }

  const cpu = os.cpus();
  const machine = {
    cpus: cpu.length,
    cpuModel: cpu[0]?.model,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
  console.log(`\n## Patchbay benchmark — ${new Date().toISOString()}${QUICK ? ' (--quick)' : ''}`);
  console.log(
    `machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memGiB} GiB, ${machine.os}, node ${machine.node}; run took ${Math.round((Date.now() - started) / 1000)} s`,
  );
  console.log(lines.join('\n'));

  const versions = {
    patchbay: JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version,
    hubDir: opts['hub-dir'] ? path.resolve(opts['hub-dir']) : undefined,
    commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: REPO,
      encoding: 'utf8',
    }).stdout?.trim(),
    /** Uncommitted changes under src/ when the run started (the build may include them). */
    srcDirty:
      (
        spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: REPO, encoding: 'utf8' })
          .stdout ?? ''
      ).trim() !== '',
    sdkClient: pkgVersion('@modelcontextprotocol/client'),
    sdkServer: pkgVersion('@modelcontextprotocol/server'),
    sdkNode: pkgVersion('@modelcontextprotocol/node'),
    supergateway: peers.supergateway?.ok ? peers.supergateway.version : null,
    mcpProxy: peers['mcp-proxy']?.ok ? peers['mcp-proxy'].version : null,
  };
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
          waitQuiet: Number(opts['wait-quiet'] ?? 0),
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
        clientErrors,
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

/** @param {string} name */
function pkgVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  } catch {
    return null;
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
