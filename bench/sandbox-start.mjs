#!/usr/bin/env node
// @ts-check
/**
 * Sandboxed servers (issue 25): what bubblewrap adds to a stdio server's start. Starts a real
 * server from npm (server-everything, `node <its dist>/index.js stdio`) plain and inside the
 * default sandbox policy (the built sandbox-policy.js and bwrap.js, as the hub would), N times
 * each, alternating, and prints spawn → initialize answer, p50 and max, side by side.
 *
 *   npm run build && node bench/sandbox-start.mjs [--runs N]
 *
 * Linux with bubblewrap only (it says so and exits elsewhere). Figures are printed, never asserted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const RUNS = Number(values.runs);
const built = (/** @type {string} */ p) => new URL(`../dist/main/core/sandbox/${p}`, import.meta.url).href;
/** @type {{ sandboxSupport(): Promise<{ available: boolean, detail: string }> }} */
const { sandboxSupport } = await import(built('sandbox-support.js'));
/** @type {{ resolvePolicy(setting: unknown, ctx: object): object }} */
const { resolvePolicy } = await import(built('sandbox-policy.js'));
/** @type {{ bwrapCommand(policy: object, command: string, args: string[]): { command: string, args: string[] } }} */
const { bwrapCommand } = await import(built('bwrap.js'));

const support = await sandboxSupport();
if (!support.available) {
  console.log(`no sandbox here: ${support.detail}`);
  process.exit(0);
}
const server = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const home = mkdtempSync(path.join(os.tmpdir(), 'patchbay-sandbox-bench-'));

/** @param {string} command @param {string[]} args @returns {Promise<number>} ms to the initialize answer */
function startOnce(command, args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], cwd: home });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('"id":0')) {
        const ms = performance.now() - t0;
        child.stdin.end();
        child.kill();
        resolve(ms);
      }
    });
    child.once('error', reject);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) + '\n');
  });
}

const plain = { command: process.execPath, args: [server, 'stdio'] };
const policy = resolvePolicy(true, { command: process.execPath, commandPath: process.execPath, args: plain.args, cwd: undefined, ownDir: home, home: os.homedir() });
const jailed = bwrapCommand(policy, process.execPath, plain.args);
/** @type {{ plain: number[], sandboxed: number[] }} */
const times = { plain: [], sandboxed: [] };
for (let i = 0; i < RUNS; i++) {
  times.plain.push(await startOnce(plain.command, plain.args));
  times.sandboxed.push(await startOnce(jailed.command, jailed.args));
}
rmSync(home, { recursive: true, force: true });
const p50 = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const max = (/** @type {number[]} */ xs) => Math.max(...xs);
console.log(`server-everything start → initialize answer, ${RUNS} runs each (${support.detail}):`);
console.log(`  plain      p50 ${p50(times.plain).toFixed(0)} ms, max ${max(times.plain).toFixed(0)} ms`);
console.log(`  sandboxed  p50 ${p50(times.sandboxed).toFixed(0)} ms, max ${max(times.sandboxed).toFixed(0)} ms (+${(p50(times.sandboxed) - p50(times.plain)).toFixed(0)} ms)`);
