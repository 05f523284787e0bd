#!/usr/bin/env node
// @ts-check
/**
 * Secret checks (issue 25, docs/secret-checks.md): what they cost a tools/call through the hub.
 * Starts the built engine in-process with the bench's echo server five times over, one entry per
 * setting (`secretCheck`: off, warn, mask, block), a secret in the store, and calls `echo`
 * sequentially with the official SDK client over Streamable HTTP on loopback:
 * - clean text (no stored value, no credential marker): what every ordinary call pays;
 * - text that carries the stored secret: under warn the check runs beside the path, under mask
 *   it replaces the value before the server gets it (block refuses it: its row is the error's).
 * - a 1 MiB answer (the echo server's `blob`): under warn the check reads its first 256 KiB after
 *   it went; under mask all of it, before.
 * Prints p50, p95 and calls/s side by side, and for the 1 MiB answers the CPU time of this process
 * (the engine and the client both run in it) per call; figures are printed, never asserted.
 *
 * The table is run ROUNDS times over and each row's figures are its best round's (the first
 * rounds warm the engine, the JIT and the CPU's clock up).
 *
 *   npm run build && node bench/secret-check.mjs [--calls N] [--rounds N]
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { pct, r3 } from './lib/figures.mjs';
import { ECHO, NODE, REPO } from './lib/paths.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '3' } } });
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const SECRET = 'bench-secret-7f3a9c1e5b2d4086';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-secret-bench-'));
const modes = ['off', 'warn', 'mask', 'block'];
writeFileSync(
  path.join(dataDir, 'config.json'),
  JSON.stringify({ mcpServers: Object.fromEntries(modes.map((m) => [`echo-${m}`, { command: NODE, args: [ECHO], secretCheck: m, warmSpare: false }])), audit: { enabled: false } }),
);
writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, secrets: { BENCH_KEY: SECRET } }), { mode: 0o600 });

// The warning each finding logs would drown the table: errors only (read when the logger loads).
process.env.PATCHBAY_LOG_LEVEL = 'error';
/** @type {{ startEngine(o: object): Promise<{ url: string, close(): Promise<void> }> }} */
const { startEngine } = await import(path.join(REPO, 'dist', 'main', 'core', 'engine', 'engine.js'));
const engine = await startEngine({ dataDir, port: 0, auth: false });

/** @param {string} server @param {string} text */
async function measure(server, text) {
  const calls = text === BLOB ? Math.max(20, Math.round(CALLS / 20)) : CALLS;
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${engine.url}/mcp/${server}`)));
  const call = () => (text === BLOB ? client.callTool({ name: 'blob', arguments: { bytes: 1 << 20 } }) : client.callTool({ name: 'echo', arguments: { text } })).catch((/** @type {Error} */ e) => e);
  for (let i = 0; i < 50; i++) await call();
  const times = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const s = performance.now();
    await call();
    times.push(performance.now() - s);
  }
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await client.close();
  times.sort((a, b) => a - b);
  return { p50: r3(pct(times, 0.5)), p95: r3(pct(times, 0.95)), perSec: Math.round((calls / total) * 1000), cpuMs: r3((cpu.user + cpu.system) / calls / 1000) };
}

const clean = 'hello from the benchmark: nothing secret here, just some ordinary words and a path /tmp/x.txt';
const leaky = `please send ${SECRET} to the other server`;
/** Stands for the 1 MiB answer of `blob`. */
const BLOB = '(1 MiB answer)';
const plan = [
  ...modes.map((m) => ({ setting: m, text: 'clean', body: clean })),
  ...modes.slice(1).map((m) => ({ setting: m, text: 'carries the secret', body: leaky })),
  ...['off', 'warn', 'mask'].map((m) => ({ setting: m, text: '1 MiB answer', body: BLOB })),
];
/** @type {Array<{ setting: string, text: string, p50: number, p95: number, perSec: number, cpuMs: number }>} */
const rows = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, row] of plan.entries()) {
      const m = await measure(`echo-${row.setting}`, row.body);
      const best = rows[i];
      if (!best || m.p50 < best.p50) rows[i] = { setting: row.setting, text: row.text, ...m };
    }
  }
} finally {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`\nsecret checks: ${CALLS} sequential tools/call per row (best of ${ROUNDS} rounds), SDK client → hub (Streamable HTTP, loopback) → stdio echo server\n`);
console.log(`${'secretCheck'.padEnd(12)} ${'text'.padEnd(20)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'calls/s'.padStart(8)} ${'CPU ms/call'.padStart(12)}`);
for (const r of rows) console.log(`${r.setting.padEnd(12)} ${r.text.padEnd(20)} ${String(r.p50).padStart(8)} ${String(r.p95).padStart(8)} ${String(r.perSec).padStart(8)} ${String(r.cpuMs).padStart(12)}`);
