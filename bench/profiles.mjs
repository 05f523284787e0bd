#!/usr/bin/env node
// @ts-check
/**
 * What the aggregated endpoint of a profile costs (docs/profiles.md), against the hub's own
 * per-server endpoint, both in one `patchbay serve` (separate process, --no-auth):
 *
 *   call latency   small tools/call round trips, /mcp/echo (tool `echo`) vs /mcp/@one (a
 *                  profile of that one server, tool `echo__echo`); rounds alternate between the
 *                  two so drift on a shared machine hits both alike. Target: p50 ratio ≤ 1.1.
 *   list latency   tools/list of /mcp/@ten, a profile of 10 servers × 50 tools (510 tools): the
 *                  first call of a session (every member asked), then repeated calls (the merged
 *                  list from cache). Target: ≤ 5 ms after the first call.
 *   memory         the hub's RSS per aggregated session of @ten (its 10 member connections and
 *                  lists; the members' own processes are reported apart), and per session of
 *                  one server for comparison.
 *
 * Printed, never asserted. Raw HTTP (fetch) as the client, so the figures are the hub's, not an
 * SDK client's validation of 510 tools.
 *
 *   npm run build && node bench/profiles.mjs [--quick]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, quantile } from './lib/round-stats.mjs';
import { killAllSync, markedPids, processCpuMs, RUN_MARK, rssKiB, startProcess, stopProcess } from './lib/proc.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(BENCH, '..');
const SERVER = path.join(BENCH, 'many-tools-server.mjs');
const { values } = parseArgs({ options: { quick: { type: 'boolean' }, 'no-capture': { type: 'boolean' } } });
const quick = values.quick === true;
const ROUNDS = quick ? 4 : 10;
const CALLS = quick ? 100 : 300;
const LISTS = quick ? 50 : 300;
const SESSIONS = quick ? 2 : 5;

/** @param {number} tools */
const server = (tools) => ({ command: process.execPath, args: [SERVER, String(tools), RUN_MARK] });
/** @type {Record<string, ReturnType<typeof server>>} */
const mcpServers = { echo: server(0) };
for (let i = 1; i <= 10; i++) mcpServers[`s${String(i).padStart(2, '0')}`] = server(50);
// One server with as many tools as the ten together: what a list that large costs without a profile.
mcpServers.big = server(509);
const config = {
  mcpServers,
  profiles: { one: { servers: ['echo'] }, ten: { servers: Object.keys(mcpServers).filter((id) => /^s\d\d$/.test(id)) } },
  inspector: values['no-capture'] ? { enabled: false } : { history: false },
};

/** A Streamable HTTP session over fetch: requests answered as SSE or JSON. */
class Session {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.id = 0;
    /** @type {string | undefined} */
    this.session = undefined;
  }

  /** @param {string} method @param {Record<string, unknown>} [params] */
  async request(method, params = {}) {
    const id = ++this.id;
    const res = await fetch(this.url, { method: 'POST', headers: this.headers(), body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
    this.session ??= res.headers.get('mcp-session-id') ?? undefined;
    const text = await res.text();
    const data = res.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6).map((l) => l.slice(6)).at(-1) : text;
    const message = JSON.parse(data ?? 'null');
    if (!message || message.error) throw new Error(`${method} failed: ${JSON.stringify(message?.error ?? text.slice(0, 200))}`);
    return { message, bytes: text.length };
  }

  /**
   * A request whose answer is only received, not parsed: the hub's share of a round trip (a
   * client's JSON.parse of a 260 KiB list is its own cost, measured apart).
   * @param {string} method
   */
  async receive(method) {
    const id = ++this.id;
    const res = await fetch(this.url, { method: 'POST', headers: this.headers(), body: JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }) });
    const text = await res.text();
    if (!text.includes(`"id":${id},"result"`)) throw new Error(`${method} failed: ${text.slice(0, 200)}`);
    return text;
  }

  async open() {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    await fetch(this.url, { method: 'POST', headers: this.headers(), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    return this;
  }

  headers() {
    return { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18', ...(this.session ? { 'Mcp-Session-Id': this.session } : {}) };
  }

  async close() {
    if (this.session) await fetch(this.url, { method: 'DELETE', headers: this.headers() }).catch(() => undefined);
  }
}

/** @param {Session} session @param {string} tool @param {number} n */
async function timeCalls(session, tool, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await session.request('tools/call', { name: tool, arguments: { text: 'hi' } });
    out.push(performance.now() - t);
  }
  return out;
}

const ms = (/** @type {number} */ v) => `${v.toFixed(2)} ms`;
const mib = (/** @type {number} */ kib) => `${(kib / 1024).toFixed(1)} MiB`;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-profiles-'));
  writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify(config, null, 2));
  /** @type {string | undefined} */
  let base;
  // The memory probe (a full GC, then process.memoryUsage() over IPC), as run.mjs uses it.
  const nodeArgs = ['--expose-gc', '--import', path.join(BENCH, 'lib', 'mem-probe.mjs')];
  const hub = startProcess('patchbay hub', process.execPath, [...nodeArgs, path.join(REPO, 'bin', 'patchbay.js'), 'serve', '--port', '0', '--no-auth'], {
    cwd: REPO,
    ipc: true,
    env: { ...process.env, PATCHBAY_HOME: dataDir, PATCHBAY_NO_LOGIN_SHELL: '1' },
    onLine: (line) => {
      const m = /hub running at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m) base = m[1];
    },
  });
  try {
    for (let i = 0; i < 150 && !base; i++) await sleep(100);
    if (!base) throw new Error(`the hub did not start:\n${hub.tail.join('\n')}`);
    console.log(`patchbay bench: profiles (${quick ? 'quick' : 'full'}), Node ${process.version}, ${os.cpus().length} cores\n`);

    // ── call latency ──
    const direct = await new Session(`${base}/mcp/echo`).open();
    const profile = await new Session(`${base}/mcp/@one`).open();
    await timeCalls(direct, 'echo', 100);
    await timeCalls(profile, 'echo__echo', 100);
    const a = [];
    const b = [];
    const ratios = [];
    for (let r = 0; r < ROUNDS; r++) {
      const ra = await timeCalls(direct, 'echo', CALLS);
      const rb = await timeCalls(profile, 'echo__echo', CALLS);
      a.push(...ra);
      b.push(...rb);
      ratios.push(median(rb) / median(ra));
    }
    console.log('tools/call, one small call at a time');
    console.log(`  per-server endpoint /mcp/echo      p50 ${ms(median(a))}  p90 ${ms(quantile(a, 0.9))}  (${a.length} calls)`);
    console.log(`  aggregated endpoint /mcp/@one      p50 ${ms(median(b))}  p90 ${ms(quantile(b, 0.9))}  (${b.length} calls)`);
    console.log(`  ratio of p50s ${(median(b) / median(a)).toFixed(3)} (median of ${ROUNDS} alternating rounds: ${median(ratios).toFixed(3)}; target ≤ 1.1)\n`);
    await direct.close();
    await profile.close();

    // ── list latency ──
    const ten = new Session(`${base}/mcp/@ten`);
    const t0 = performance.now();
    await ten.open();
    const opened = performance.now() - t0;
    const t1 = performance.now();
    const first = await ten.request('tools/list');
    const firstMs = performance.now() - t1;
    const lists = [];
    const parse = [];
    // The hub's own CPU time per answer: unlike wall time, other processes on the machine do not count.
    const cpu0 = processCpuMs(hub.pid) ?? 0;
    for (let i = 0; i < LISTS; i++) {
      const t = performance.now();
      const text = await ten.receive('tools/list');
      lists.push(performance.now() - t);
      const p = performance.now();
      JSON.parse(text.slice(text.indexOf('data: {') + 6).trim());
      parse.push(performance.now() - p);
    }
    console.log(`tools/list of /mcp/@ten (10 servers × 50 tools: ${first.message.result.tools.length} tools, ${(first.bytes / 1024).toFixed(0)} KiB)`);
    console.log(`  initialize (10 members started and initialized)  ${ms(opened)}`);
    console.log(`  first tools/list (every member asked)            ${ms(firstMs)}`);
    const cpuList = ((processCpuMs(hub.pid) ?? 0) - cpu0) / LISTS;
    console.log(`  later tools/list (cached), answer received  p50 ${ms(median(lists))}  p90 ${ms(quantile(lists, 0.9))}  max ${ms(Math.max(...lists))}  (target ≤ 5 ms)`);
    console.log(`  the hub's CPU time per cached tools/list: ${ms(cpuList)} (10 ms ticks over ${LISTS} answers)`);
    console.log(`  (the client's JSON.parse of that answer, apart: p50 ${ms(median(parse))})`);
    const big = await new Session(`${base}/mcp/big`).open();
    await big.receive('tools/list');
    const single = [];
    const cpu1 = processCpuMs(hub.pid) ?? 0;
    for (let i = 0; i < LISTS; i++) {
      const t = performance.now();
      await big.receive('tools/list');
      single.push(performance.now() - t);
    }
    await big.close();
    const cpuSingle = ((processCpuMs(hub.pid) ?? 0) - cpu1) / LISTS;
    console.log(`  for comparison, /mcp/big: one server with 510 tools, answer received  p50 ${ms(median(single))}  p90 ${ms(quantile(single, 0.9))}, hub CPU ${ms(cpuSingle)} per answer\n`);

    // ── memory ──
    /** Retained memory after a full GC: { heap, rss } in KiB. */
    const settle = async () => {
      await sleep(300);
      const usage = await new Promise((resolve) => {
        const onMessage = (/** @type {any} */ m) => {
          if (m?.probe !== 'mem') return;
          hub.child.off('message', onMessage);
          resolve(m.usage);
        };
        hub.child.on('message', onMessage);
        hub.child.send({ probe: 'mem' });
      });
      return { heap: /** @type {any} */ (usage).heapUsed / 1024, rss: rssKiB(hub.pid) ?? 0 };
    };
    const before = await settle();
    const sessions = [];
    for (let i = 0; i < SESSIONS; i++) {
      const s = await new Session(`${base}/mcp/@ten`).open();
      await s.request('tools/list');
      sessions.push(s);
    }
    const after = await settle();
    const kids = markedPids();
    const kidsKiB = kids.reduce((sum, pid) => sum + (rssKiB(pid) ?? 0), 0);
    for (const s of sessions) await s.close();
    const before1 = await settle();
    const singles = [];
    for (let i = 0; i < SESSIONS * 10; i++) {
      const s = await new Session(`${base}/mcp/s01`).open();
      await s.request('tools/list');
      singles.push(s);
    }
    const after1 = await settle();
    for (const s of singles) await s.close();
    const kib = (/** @type {number} */ v) => `${Math.round(v).toLocaleString('en-US')} KiB`;
    /** @param {{ heap: number, rss: number }} a @param {{ heap: number, rss: number }} b @param {number} n */
    const per = (a, b, n) => `heap ${kib((a.heap - b.heap) / n)}, RSS ${kib((a.rss - b.rss) / n)}`;
    console.log(`memory in the hub, retained after a full GC (${SESSIONS} aggregated sessions, ${SESSIONS * 10} single-server ones)`);
    console.log(`  per aggregated session of @ten   ${per(after, before, SESSIONS)}  (10 member connections, their lists, the merged list)`);
    console.log(`  per session of one server        ${per(after1, before1, SESSIONS * 10)}  (ten of them: ${per(after1, before1, SESSIONS)})`);
    console.log(`  member processes while the aggregated sessions ran: ${kids.length} (warm spares included), ${mib(kidsKiB)} RSS in all`);
    await ten.close();
  } finally {
    await stopProcess(hub);
    killAllSync();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
