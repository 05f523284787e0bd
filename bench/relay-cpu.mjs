#!/usr/bin/env node
// @ts-check
/**
 * What one call costs on the relay paths, in CPU: sequential `echo` calls from a stdio client
 * through `patchbay relay echo` (the CLI's relay) or the desktop app's bundled relay to a running
 * hub, or through `patchbay relay --url`, to the SDK's Streamable HTTP server as the remote; for
 * each, the p50 and the CPU time per call of the relay process and (relay-hub, relay-app) of the
 * hub, read from /proc (Linux; 10 ms ticks, so use enough calls). Targets run in alternating
 * rounds and each figure is the median over rounds. With --baseline-dir, the same paths on an
 * older build (its bin/ and dist/, e.g. a built `git worktree`) run in the same rounds, so an
 * old/new pair is measured side by side. Loopback only; every process is stopped by its pid.
 *
 *   node bench/relay-cpu.mjs [--calls N] [--warmup N] [--rounds N] [--only relay-hub,relay-app,relay-url] [--baseline-dir DIR]
 *
 * Defaults: 3,000 calls after 500 unmeasured ones, 3 rounds, all three targets.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pct, r3 } from './lib/figures.mjs';
import { NODE, REPO, SDK_HTTP } from './lib/paths.mjs';
import { processCpuMs, startProcess, stopProcess } from './lib/proc.mjs';
import { median } from './lib/round-stats.mjs';

const TARGETS = ['relay-hub', 'relay-app', 'relay-url'];

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    'baseline-dir': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log('usage: node bench/relay-cpu.mjs [--calls N] [--warmup N] [--rounds N] [--only relay-hub,relay-app,relay-url] [--baseline-dir DIR]');
  process.exit(0);
}
if (process.platform !== 'linux') {
  console.error('bench/relay-cpu.mjs reads CPU times from /proc: Linux only');
  process.exit(1);
}
const calls = Number(values.calls);
const warmup = Number(values.warmup);
const rounds = Number(values.rounds);
const only = values.only ? values.only.split(',') : TARGETS;
for (const t of only) if (!TARGETS.includes(t)) throw new Error(`unknown target '${t}' (known: ${TARGETS.join(', ')})`);
/** @type {Array<{ label: string, root: string }>} */
const builds = [{ label: 'new', root: REPO }, ...(values['baseline-dir'] ? [{ label: 'base', root: path.resolve(values['baseline-dir']) }] : [])];
for (const b of builds) {
  for (const file of ['bin/patchbay.js', 'dist/relay/patchbay-relay.mjs']) if (!existsSync(path.join(b.root, file))) throw new Error(`not built (${path.join(b.root, file)}): npm run build`);
}

/** @type {string[]} */
const temps = [];
const tempDir = (/** @type {string} */ prefix) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** A stdio MCP client on a spawned process: one request at a time, answers matched by id. */
function stdioClient(/** @type {import('./lib/proc.mjs').Proc} */ proc) {
  /** @type {Map<number, () => void>} */
  const waiting = new Map();
  let buffer = '';
  proc.child.stdout?.removeAllListeners('data');
  proc.child.stdout?.setEncoding('utf8');
  proc.child.stdout?.on('data', (/** @type {string} */ chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const id = JSON.parse(line).id;
      waiting.get(id)?.();
      waiting.delete(id);
    }
  });
  let next = 0;
  /** @param {string} method @param {unknown} params */
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within 30 s: ${proc.tail.join('\n')}`)), 30_000);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve(undefined);
      });
      proc.child.stdin?.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  return {
    async start() {
      await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-relay-cpu', version: '1' } });
      proc.child.stdin?.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    },
    echo: () => request('tools/call', { name: 'echo', arguments: { message: 'hi' } }),
  };
}

/**
 * One target on one build: its relay (and hub) started, warmed, measured, stopped.
 * @param {string} target @param {{ label: string, root: string }} build @param {string} remoteUrl
 */
async function measure(target, build, remoteUrl) {
  const bin = path.join(build.root, 'bin', 'patchbay.js');
  /** @type {import('./lib/proc.mjs').Proc | undefined} */
  let hub;
  let args;
  /** @type {NodeJS.ProcessEnv} */
  let env = { ...process.env, PATCHBAY_LOG_LEVEL: 'warn' };
  if (target === 'relay-url') {
    args = [bin, 'relay', '--url', remoteUrl];
    env = { ...env, PATCHBAY_HOME: tempDir('patchbay-bench-cpu-url-') };
  } else {
    const home = tempDir('patchbay-bench-cpu-');
    writeFileSync(path.join(home, 'config.json'), JSON.stringify({ mcpServers: { echo: { type: 'http', url: remoteUrl } }, hub: { port: 0 }, inspector: { history: false } }));
    hub = startProcess('hub', NODE, [bin, 'serve', '--data-dir', home], { env });
    for (let i = 0; i < 300 && !existsSync(path.join(home, 'hub.json')); i++) await new Promise((r) => setTimeout(r, 50));
    if (!existsSync(path.join(home, 'hub.json'))) throw new Error(`the hub did not start: ${hub.tail.join('\n')}`);
    args = target === 'relay-hub' ? [bin, 'relay', 'echo'] : [path.join(build.root, 'dist', 'relay', 'patchbay-relay.mjs'), 'relay', 'echo', '--data-dir', home, '--no-start'];
    if (target === 'relay-hub') env = { ...env, PATCHBAY_HOME: home };
  }
  const relay = startProcess(target, NODE, args, { env, stdin: true });
  try {
    const client = stdioClient(relay);
    await client.start();
    for (let i = 0; i < warmup; i++) await client.echo();
    const relay0 = processCpuMs(relay.pid) ?? NaN;
    const hub0 = hub ? processCpuMs(hub.pid) ?? NaN : NaN;
    /** @type {number[]} */
    const lat = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await client.echo();
      lat.push(performance.now() - t);
    }
    const relayMs = (processCpuMs(relay.pid) ?? NaN) - relay0;
    const hubMs = hub ? (processCpuMs(hub.pid) ?? NaN) - hub0 : NaN;
    lat.sort((a, b) => a - b);
    return { p50: pct(lat, 0.5), relayCpu: relayMs / calls, hubCpu: hubMs / calls };
  } finally {
    relay.child.stdin?.end();
    await stopProcess(relay, { graceMs: 3000 });
    if (hub) await stopProcess(hub);
  }
}

const remote = startProcess('remote', NODE, [SDK_HTTP, '--port', '0']);
/** @type {Record<string, Array<{ p50: number, relayCpu: number, hubCpu: number }>>} */
const results = {};
try {
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the remote did not start')), 15_000);
    remote.onLine = (line) => {
      const m = /^listening (\d+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
  });
  const remoteUrl = `http://127.0.0.1:${port}/mcp`;
  console.error(`bench: relay CPU per call, ${calls} sequential calls after ${warmup}, ${rounds} rounds; remote ${remoteUrl}`);
  for (let round = 0; round < rounds; round++) {
    // Alternate the builds' order from round to round, so neither always runs first.
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const target of only) {
      for (const build of order) {
        const key = `${target}${build.label === 'new' ? '' : ` (${build.label})`}`;
        const r = await measure(target, build, remoteUrl);
        (results[key] ??= []).push(r);
        console.error(`  round ${round + 1}: ${key}: p50 ${r3(r.p50)} ms, relay ${r3(r.relayCpu)} ms/call${Number.isNaN(r.hubCpu) ? '' : `, hub ${r3(r.hubCpu)} ms/call`}`);
      }
    }
  }
} finally {
  await stopProcess(remote);
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}

const show = (/** @type {number} */ x) => (Number.isNaN(x) ? '–' : r3(x).toFixed(3));
console.log(`\n| target | p50 ms | relay CPU ms/call | hub CPU ms/call |\n|---|---:|---:|---:|`);
for (const [key, rows] of Object.entries(results)) {
  console.log(`| ${key} | ${show(median(rows.map((r) => r.p50)))} | ${show(median(rows.map((r) => r.relayCpu)))} | ${show(median(rows.map((r) => r.hubCpu)))} |`);
}
console.log(`\nmedians over ${rounds} rounds; CPU from /proc (10 ms ticks over ${calls} calls)`);
