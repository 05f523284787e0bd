#!/usr/bin/env node
// @ts-check
/**
 * On-demand tools (issue 26): how fast `patchbay__find_tools` answers. Indexes N generated tools
 * (default 1,000, shaped like real servers' — names in snake_case, kebab-case and camelCase,
 * descriptions, argument names and their descriptions) with the built ToolSearch
 * (dist/main/core/profiles/tool-search.js), then runs a mix of queries (exact words, prefixes,
 * typos, argument names, no match) and prints the build time and per-query latency.
 *
 *   npm run build && node bench/tool-search.mjs [--tools N] [--queries N]
 *
 * Figures are printed, never asserted (tests do not measure time).
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { tools: { type: 'string', default: '1000' }, queries: { type: 'string', default: '5000' } } });
const TOOLS = Number(values.tools);
const QUERIES = Number(values.queries);
// The built module, by a computed URL: type-checking this script must not pull the build in.
const built = new URL('../dist/main/core/profiles/tool-search.js', import.meta.url).href;
/** @type {{ ToolSearch: new (tools: object[]) => { search(query: string, limit?: number): Array<{ name: string }> } }} */
const { ToolSearch } = await import(built);

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'read', 'write', 'move', 'archive', 'summarize', 'export'];
const NOUNS = ['issue', 'pull_request', 'file', 'directory', 'message', 'channel', 'calendar_event', 'invoice', 'customer', 'ticket', 'page', 'dataset', 'dashboard', 'deployment', 'secret', 'branch'];
/** @param {string} w */
const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1);
/** @type {Array<(verb: string, noun: string) => string>} */
const STYLES = [(v, n) => `${v}_${n}`, (v, n) => `${v}-${n.replaceAll('_', '-')}`, (v, n) => v + n.split('_').map(cap).join('')];

const tools = [];
for (let i = 0; i < TOOLS; i++) {
  const verb = /** @type {string} */ (VERBS[i % VERBS.length]);
  const noun = /** @type {string} */ (NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]);
  const style = /** @type {(verb: string, noun: string) => string} */ (STYLES[i % STYLES.length]);
  const server = `server${Math.floor(i / 50)}`;
  tools.push({
    name: `${server}__${style(verb, noun)}_${i}`,
    title: `${cap(verb)} ${noun.replaceAll('_', ' ')}`,
    description: `${cap(verb)}s a ${noun.replaceAll('_', ' ')} in workspace ${i % 37}. Use it when the user wants to ${verb} one; pass its id and, optionally, a limit and a cursor.`,
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: `The ${noun} id` }, limit: { type: 'integer', description: 'How many to return' }, cursor: { type: 'string', description: 'Where to continue' } },
      required: ['id'],
    },
  });
}

const queries = ['create issue', 'pull request', 'calendar event', 'delete secret branch', 'summarise dashbord', 'invoic', 'cursor limit', 'archive page workspace 12', 'deploy', 'zzzz nothing'];

const t0 = performance.now();
const search = new ToolSearch(tools);
const buildMs = performance.now() - t0;

/** @param {number} i */
const queryAt = (i) => /** @type {string} */ (queries[i % queries.length]);
for (let i = 0; i < 500; i++) search.search(queryAt(i)); // warm-up
/** @type {number[]} */
const times = [];
let hits = 0;
for (let i = 0; i < QUERIES; i++) {
  const q = queryAt(i);
  const s = performance.now();
  hits += search.search(q, 10).length;
  times.push(performance.now() - s);
}
times.sort((a, b) => a - b);
/** @param {number} p */
const pct = (p) => /** @type {number} */ (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]);
/** @param {number} ms */
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`;
console.log(`tool search: ${TOOLS} tools indexed in ${buildMs.toFixed(1)} ms; ${QUERIES} queries (${queries.length} kinds, ${(hits / QUERIES).toFixed(1)} hits each)`);
console.log(`  per query: p50 ${us(pct(50))}, p95 ${us(pct(95))}, p99 ${us(pct(99))}, max ${us(pct(100))}`);
for (const q of queries.slice(0, 4)) console.log(`  "${q}" → ${search.search(q, 3).map((/** @type {{ name: string }} */ t) => t.name).join(', ') || '(none)'}`);
