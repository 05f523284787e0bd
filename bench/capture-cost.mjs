#!/usr/bin/env node
// @ts-check
/**
 * What capture costs the proxy. Hubs (the built engine, each in its own process) run with the
 * inspector's capture on and off, and a light HTTP load generator drives small tools/call
 * requests through them on many sessions to a hand-rolled stdio echo server (fast, so the hub is
 * what is measured). Each of `--rounds` rounds starts a new pair of hubs (one per mode), gives
 * each `--warmup-calls` calls, which fill a capturing hub's memory to its limits (so eviction and
 * a full heap are part of what is measured), then measures them in turns, `--seconds` each,
 * off-on-on-off (or the reverse). Reported per mode: calls per second and the hub process's CPU
 * time per call; then the cost of capture on both. The target is under 10%.
 *
 *   npm run build && node bench/capture-cost.mjs [--seconds 2] [--rounds 10] [--warmup-calls 30000]
 *       [--sessions 16] [--text-bytes 200] [--together] [--null] [--cpu-prof DIR]
 *       [--inspector '{"history":false}'] [--engine DIST_DIR]
 *
 * The headline is the median over rounds of each round's ratio (its slices ran back to back, so
 * slow drifts of the machine's other load cancel out within a round), with the middle half of
 * the rounds to show the spread and a 95% confidence interval of the median (order statistics,
 * lib/round-stats.mjs; from 6 rounds) to show how well the rounds pin it. `--null` runs both
 * hubs of every pair with capture off: what the method reads when there is nothing to find (on a
 * shared two-core machine, a few percent either way). CPU per call is shown too, as the median
 * and the best round (other work on the machine only ever makes a round worse); main-thread CPU
 * apart: the rest is the garbage collector's helper threads and libuv's file writes. Everything
 * is on 127.0.0.1; every process started is stopped.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median, spread } from './lib/round-stats.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '10' },
    /** All hubs driven at once in each round (rather than in turns): equal exposure to the machine's other load. */
    together: { type: 'boolean', default: false },
    /** Calls per hub before measuring: enough to fill the capturing hub's memory (100k events). */
    'warmup-calls': { type: 'string', default: '30000' },
    sessions: { type: 'string', default: '16' },
    'text-bytes': { type: 'string', default: '200' },
    /** Write a CPU profile of each hub process to this directory (node --cpu-prof). */
    'cpu-prof': { type: 'string' },
    /** The config's `inspector` section for the capture-on hub, as JSON (e.g. '{"history":false}'). */
    inspector: { type: 'string' },
    /** Another build's output directory (e.g. a baseline built with tsc --outDir), instead of dist. */
    engine: { type: 'string' },
    /** Both hubs of each pair with capture off: what the method reads when there is nothing to find. */
    null: { type: 'boolean', default: false },
  },
});
// core/engine/engine.js since the spine refactor (issue 13); core/engine.js in builds from before it,
// which --engine may point at as a baseline.
const ENGINE_ROOT = path.join(path.resolve(args.engine ?? path.join(REPO, 'dist')), 'main', 'core');
const ENGINE = [path.join(ENGINE_ROOT, 'engine', 'engine.js'), path.join(ENGINE_ROOT, 'engine.js')].find((f) => existsSync(f)) ?? path.join(ENGINE_ROOT, 'engine', 'engine.js');
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args['warmup-calls']);
const TOGETHER = args.together === true;
const NULL_RUN = args.null === true;
const SESSIONS = Number(args.sessions);
const TEXT = 'x'.repeat(Number(args['text-bytes']));

/** A stdio echo server in a few lines: no SDK, so the child costs next to nothing. */
const ECHO = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const out = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined || typeof m.method !== 'string') return;
  if (m.method === 'initialize') return out({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'echo', version: '1' } } });
  if (m.method === 'tools/call') return out({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: m.params.arguments.text }] } });
  out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } });
});
rl.on('close', () => process.exit(0));
`;

/** The hub process: imports the built engine and starts it with capture on or off. */
const HUB = `
const { readFileSync } = await import('node:fs');
const { startEngine } = await import(process.env.BENCH_ENGINE);
const engine = await startEngine({ dataDir: process.env.BENCH_DATA, port: 0, capture: process.env.BENCH_CAPTURE === 'on' });
process.stdout.write(JSON.stringify({ url: engine.url, token: readFileSync(engine.tokenFile, 'utf8').trim() }) + '\\n');
process.on('SIGTERM', () => void engine.close().then(() => process.exit(0)));
`;

/** @param {string} file @returns {number | undefined} CPU ms (user + system) from a /proc stat file */
function statMs(file) {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/**
 * CPU ms of the hub process, in all and on its main (JavaScript) thread; the rest is the
 * garbage collector's helper threads and libuv's pool (file writes).
 * @param {number} pid @returns {{ all: number, main: number } | undefined}
 */
function cpuMs(pid) {
  const all = statMs(`/proc/${pid}/stat`);
  const main = statMs(`/proc/${pid}/task/${pid}/stat`);
  return all === undefined || main === undefined ? undefined : { all, main };
}

/**
 * @param {'on' | 'off'} capture
 * @returns {Promise<{ url: string, token: string, pid: number, stop(): Promise<void> }>}
 */
async function startHub(capture) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pb-capture-cost-'));
  const inspector = args.inspector ? { inspector: JSON.parse(args.inspector) } : {};
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: ['-e', ECHO] } }, ...inspector }));
  const prof = args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args['cpu-prof'], capture)}`] : [];
  const child = spawn(process.execPath, [...prof, '--input-type=module', '-e', HUB], {
    env: { ...process.env, BENCH_ENGINE: pathToFileURL(ENGINE).href, BENCH_DATA: dataDir, BENCH_CAPTURE: capture, PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const first = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))));
    });
    child.once('exit', (code) => reject(new Error(`the hub exited with code ${code} before it was up`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    await rm(dataDir, { recursive: true, force: true });
  };
  return { ...first, pid: /** @type {number} */ (child.pid), stop };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/**
 * @param {string} url @param {Record<string, string>} headers @param {string} body
 * @returns {Promise<{ status: number, headers: http.IncomingHttpHeaders, text: string }>}
 */
function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': Buffer.byteLength(body), ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.end(body);
  });
}

/** @param {{ url: string, token: string }} hub */
async function openSession(hub) {
  const url = `${hub.url}/mcp/echo`;
  const auth = { Authorization: `Bearer ${hub.token}` };
  const init = await post(url, auth, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'capture-cost', version: '1' } } }));
  if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status} ${init.text}`);
  const headers = { ...auth, 'Mcp-Session-Id': String(init.headers['mcp-session-id']), 'MCP-Protocol-Version': '2025-06-18' };
  await post(url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  let id = 1;
  return async () => {
    const n = id++;
    const res = await post(url, headers, JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'echo', arguments: { text: TEXT } } }));
    if (res.status !== 200 || !res.text.includes(`"id":${n}`)) throw new Error(`tools/call: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  };
}

/**
 * Drives every session of a hub in a closed loop (one call in flight per session) for `seconds`,
 * or until `calls` calls are done.
 * @param {Array<() => Promise<void>>} callers @param {{ seconds?: number, calls?: number }} until
 * @returns {Promise<number>} calls done
 */
async function drive(callers, until) {
  const stopAt = until.seconds === undefined ? Infinity : Date.now() + until.seconds * 1000;
  const max = until.calls ?? Infinity;
  let done = 0;
  await Promise.all(
    callers.map(async (call) => {
      while (Date.now() < stopAt && done < max) {
        await call();
        done++;
      }
    }),
  );
  return done;
}

/**
 * One measured slice of a hub's traffic: calls per second and CPU per call.
 * @param {{ pid: number }} hub @param {Array<() => Promise<void>>} callers
 */
async function slice(hub, callers) {
  const cpu0 = cpuMs(hub.pid);
  const t0 = performance.now();
  const done = await drive(callers, { seconds: SECONDS });
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuMs(hub.pid);
  const per = (/** @type {'all' | 'main'} */ k) => (cpu0 === undefined || cpu1 === undefined ? undefined : ((cpu1[k] - cpu0[k]) * 1000) / done);
  return { callsPerSec: done / seconds, calls: done, cpuMs: cpu0 && cpu1 ? cpu1.all - cpu0.all : undefined, cpuUsPerCall: per('all'), mainUsPerCall: per('main') };
}

/** @param {number | undefined} x @param {number} [digits] */
const fmt = (x, digits = 0) => (x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(digits));

async function main() {
  if (!existsSync(ENGINE)) throw new Error(`no built engine at ${ENGINE}: run npm run build first`);
  console.error(
    `capture-cost: ${ROUNDS} rounds, each a new pair of hubs, ${WARMUP} warm-up calls each, then 2 × ${SECONDS}s per mode; ${SESSIONS} sessions, ${TEXT.length}-byte echo; ${os.availableParallelism()} CPUs, load ${os.loadavg()[0]?.toFixed(2)}${NULL_RUN ? '; NULL RUN: capture off in both' : ''}`,
  );
  /** @type {Record<'on' | 'off', Array<Awaited<ReturnType<typeof slice>>>>} */
  const results = { on: [], off: [] };
  /** Per round: the cost of capture in CPU per call and in throughput, from the slices run back to back. */
  const paired = [];
  /** @type {number[]} */
  const pairedThroughput = [];
  for (let r = 0; r < ROUNDS; r++) {
    // A new pair of processes every round. One process can run several percent faster or slower
    // than another running the very same code, for its whole life (where the JIT and the
    // collector happened to settle, which core it and its child landed on): a null run with
    // long-lived hubs read up to 10% between two identical hubs. With a pair per round, that
    // lottery is drawn again each time, and the median over rounds is not held by one draw.
    // Start order alternates too; each hub's warm-up fills a capturing hub's memory to its limits
    // (eviction running, a full heap), and the slices go off, on, on, off (or the reverse).
    /** @type {Array<'on' | 'off'>} */
    const modes = r % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    /** @type {Array<{ mode: 'on' | 'off', hub: Awaited<ReturnType<typeof startHub>>, callers: Array<() => Promise<void>> }>} */
    const hubs = [];
    try {
      for (const mode of modes) hubs.push({ mode, hub: await startHub(NULL_RUN ? 'off' : mode), callers: [] });
      for (const h of hubs) h.callers = await Promise.all(Array.from({ length: SESSIONS }, () => openSession(h.hub)));
      for (const h of hubs) await drive(h.callers, { calls: WARMUP });
      /** @type {Record<'on' | 'off', number[]>} */
      const cpu = { on: [], off: [] };
      /** @type {Record<'on' | 'off', number[]>} */
      const rate = { on: [], off: [] };
      const record = (/** @type {typeof hubs[0]} */ h, /** @type {Awaited<ReturnType<typeof slice>>} */ m) => {
        results[h.mode].push(m);
        rate[h.mode].push(m.callsPerSec);
        if (m.cpuUsPerCall !== undefined) cpu[h.mode].push(m.cpuUsPerCall);
        console.error(`  round ${r + 1} capture ${h.mode.padEnd(3)} ${fmt(m.callsPerSec)} calls/s, hub ${fmt(m.cpuUsPerCall)} µs CPU/call (${fmt(m.mainUsPerCall)} on its main thread)`);
      };
      for (let turn = 0; turn < 2; turn++) {
        if (TOGETHER) {
          const slices = await Promise.all(hubs.map((h) => slice(h.hub, h.callers)));
          hubs.forEach((h, i) => record(h, /** @type {Awaited<ReturnType<typeof slice>>} */ (slices[i])));
        } else {
          for (const h of turn === 0 ? hubs : [...hubs].reverse()) record(h, await slice(h.hub, h.callers));
        }
      }
      const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      paired.push(((mean(cpu.on) - mean(cpu.off)) / mean(cpu.off)) * 100);
      pairedThroughput.push(((mean(rate.off) - mean(rate.on)) / mean(rate.off)) * 100);
    } finally {
      await Promise.all(hubs.map((h) => h.hub.stop()));
    }
  }
  report(results, paired, pairedThroughput);
}

/** `spread` of the paired rounds, its median named as the report's JSON has it. @param {number[]} xs */
function pairedSpread(xs) {
  const { median: pairedMedian, ...rest } = spread(xs);
  return { pairedMedian, ...rest };
}

/** @param {Record<'on' | 'off', Array<{ callsPerSec: number, calls: number, cpuMs: number | undefined, cpuUsPerCall: number | undefined, mainUsPerCall: number | undefined }>>} results */
function report(results, /** @type {number[]} */ paired, /** @type {number[]} */ pairedThroughput) {
  /** @param {'on' | 'off'} mode @param {'callsPerSec' | 'cpuUsPerCall' | 'mainUsPerCall'} key */
  const values = (mode, key) => /** @type {number[]} */ (results[mode].map((x) => x[key]).filter((x) => x !== undefined));
  /** The median, and the best round: noise from other work on the machine only ever makes a round worse. */
  const stat = (/** @type {'on' | 'off'} */ mode, /** @type {'callsPerSec' | 'cpuUsPerCall' | 'mainUsPerCall'} */ key) => {
    const xs = values(mode, key);
    return { median: median(xs), best: xs.length === 0 ? NaN : key === 'callsPerSec' ? Math.max(...xs) : Math.min(...xs) };
  };
  const table = /** @type {const} */ (['off', 'on']).map((mode) => ({ mode, calls: stat(mode, 'callsPerSec'), cpu: stat(mode, 'cpuUsPerCall'), main: stat(mode, 'mainUsPerCall') }));
  const [off, on] = /** @type {[typeof table[0], typeof table[0]]} */ (table);
  console.log('\ncapture   calls/s (median / best)   hub µs CPU per call (median / best)   of which main thread');
  for (const t of table) console.log(`${t.mode.padEnd(8)}  ${fmt(t.calls.median).padStart(7)} / ${fmt(t.calls.best).padEnd(13)}  ${fmt(t.cpu.median).padStart(7)} / ${fmt(t.cpu.best).padEnd(27)}  ${fmt(t.main.median)} / ${fmt(t.main.best)}`);
  const pct = (/** @type {number} */ a, /** @type {number} */ b) => ((a - b) / b) * 100;
  const cost = {
    throughputPct: {
      median: -pct(on.calls.median, off.calls.median),
      best: -pct(on.calls.best, off.calls.best),
      // The rounds' median, their middle half and the median's 95% interval: single rounds
      // scatter by ±10 points here, so even 30 rounds pin the median to a few points only; the
      // verdict below is the median's.
      ...pairedSpread(pairedThroughput),
    },
    cpuPct: { median: pct(on.cpu.median, off.cpu.median), best: pct(on.cpu.best, off.cpu.best), pairedMedian: median(paired) },
  };
  /** A cost in percent, with its sign (a negative cost: capture on was the faster run). */
  const signed = (/** @type {number} */ x) => `${x >= 0 ? '+' : '−'}${fmt(Math.abs(x), 1)}%`;
  console.log(
    `\ncost of capture, medians of all slices (unpaired: the machine's drifts land in it): throughput ${signed(cost.throughputPct.median)} (best rounds: ${signed(cost.throughputPct.best)}), hub CPU per call ${signed(cost.cpuPct.median)} (best rounds: ${signed(cost.cpuPct.best)}; median over rounds: ${signed(cost.cpuPct.pairedMedian)})`,
  );
  // The headline: each round's slices ran back to back, so slow drifts of the machine's other load
  // cancel out within a round; the median over rounds then discards the rounds a burst disturbed.
  const headline = cost.throughputPct.pairedMedian;
  const ci = cost.throughputPct.ci95;
  console.log(
    `throughput cost of capture, median of ${pairedThroughput.length} paired rounds: ${signed(headline)} (middle half of rounds: ${signed(cost.throughputPct.q1)} to ${signed(cost.throughputPct.q3)}; 95% confidence interval of the median: ${ci ? `${signed(ci.low)} to ${signed(ci.high)}` : 'needs 6 rounds'}); target under 10%: ${Number.isNaN(headline) ? 'n/a' : headline < 10 ? 'met' : 'missed'}${ci && !Number.isNaN(headline) && (ci.low < 10) !== (ci.high < 10) ? ' (by the median; the interval spans 10%)' : ''}`,
  );
  console.log(JSON.stringify({ rounds: ROUNDS, seconds: SECONDS, warmupCalls: WARMUP, sessions: SESSIONS, textBytes: TEXT.length, inspector: args.inspector ? JSON.parse(args.inspector) : {}, off, on, cost }));
}

main()
  .then(() => agent.destroy())
  .catch((err) => {
    console.error(`capture-cost: ${err instanceof Error ? err.message : String(err)}`);
    agent.destroy();
    process.exit(1);
  });
