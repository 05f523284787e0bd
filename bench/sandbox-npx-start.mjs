#!/usr/bin/env node
// @ts-check
/**
 * Sandboxed npx servers (issue 25, docs/sandbox.md): what a sandbox does to an `npx -y
 * <package>@<version>` server's start. In its sandbox npx's cache is the server's own (its HOME is
 * `<data dir>/sandbox/<id>`), so its first start fetches the package even when the user's cache has
 * it; later starts find it there. Starts the built engine in-process with one npx server plain (its
 * HOME a fresh directory of this run's, so its first start is cold too) and one sandboxed, both
 * fetching from a package registry on loopback (test/fixtures/loopback-npm.mjs: a real `npm pack`
 * tarball), `warmSpare: false` so each session starts a child; times a session's start — spawn,
 * npx, the server's `initialize` answer — the first (cold cache) and then N more (warm cache).
 *
 *   npm run build && node bench/sandbox-npx-start.mjs [--runs N]
 *
 * Linux with bubblewrap only (it says so and exits elsewhere). Figures are printed, never asserted.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loopbackRegistry, npmEnv, packProbe, PROBE } from '../test/fixtures/loopback-npm.mjs';
import { REPO } from './lib/paths.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '8' } } });
const RUNS = Number(values.runs);
/** @type {{ sandboxSupport(): Promise<{ available: boolean, detail: string }> }} */
const { sandboxSupport } = await import(path.join(REPO, 'dist', 'main', 'core', 'sandbox', 'sandbox-support.js'));
const support = await sandboxSupport();
if (!support.available) {
  console.log(`no sandbox here: ${support.detail}`);
  process.exit(0);
}
process.env.PATCHBAY_LOG_LEVEL = 'error';
/** @type {{ startEngine(o: object): Promise<{ url: string, close(): Promise<void> }> }} */
const { startEngine } = await import(path.join(REPO, 'dist', 'main', 'core', 'engine', 'engine.js'));

const registry = await loopbackRegistry(packProbe());
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-npx-bench-'));
const plainHome = mkdtempSync(path.join(os.tmpdir(), 'patchbay-npx-bench-home-'));
const entry = (/** @type {Record<string, unknown>} */ extra) => ({ command: 'npx', args: ['-y', `${PROBE}@1.0.0`], warmSpare: false, startupTimeoutMs: 120_000, ...extra });
writeFileSync(
  path.join(dataDir, 'config.json'),
  JSON.stringify({
    mcpServers: { plain: entry({ env: { ...npmEnv(registry.url), HOME: plainHome } }), sandboxed: entry({ env: npmEnv(registry.url), sandbox: true }) },
    audit: { enabled: false },
  }),
);
const engine = await startEngine({ dataDir, port: 0, auth: false });

/** @param {string} server @returns {Promise<number>} ms from connect to the initialize answer */
async function start(server) {
  const client = new Client({ name: 'bench', version: '1' });
  const t0 = performance.now();
  await client.connect(new StreamableHTTPClientTransport(new URL(`${engine.url}/mcp/${server}`)));
  const ms = performance.now() - t0;
  await client.close();
  return ms;
}

/** @type {Array<{ server: string, cold: number, warm: number[] }>} */
const rows = [
  { server: 'plain', cold: 0, warm: [] },
  { server: 'sandboxed', cold: 0, warm: [] },
];
try {
  for (const row of rows) row.cold = await start(row.server);
  for (let i = 0; i < RUNS; i++) for (const row of rows) row.warm.push(await start(row.server));
} finally {
  await engine.close();
  await registry.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(plainHome, { recursive: true, force: true });
}
const p50 = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`npx -y ${PROBE}@1.0.0 through the hub: session start → initialize answer (${support.detail}; registry on loopback)`);
for (const r of rows) {
  console.log(`  ${r.server.padEnd(10)} first start (cold cache) ${r.cold.toFixed(0).padStart(5)} ms   later starts p50 ${p50(r.warm).toFixed(0).padStart(5)} ms (${RUNS} runs)`);
}
