// @ts-check
/**
 * The tables bench/run.mjs prints, one section per workload that ran, each row a target and its
 * figures beside the floor's, with the footnotes for figures cut short or disturbed.
 */
import os from 'node:os';
import { formatBurst } from '../burst.mjs';
import { FOREIGN_WARN } from '../lib/quiet.mjs';
import { table } from '../lib/targets.mjs';
import { formatRelay } from '../relay.mjs';
import { ONCE, WORKLOADS } from '../workloads/config.mjs';
import { captureCost } from '../workloads/throughput.mjs';

/**
 * What a run measured, as the report reads it.
 * @typedef {object} RunFigures
 * @property {Record<string, any>} results       the reported figures, by target and workload
 * @property {Record<string, Record<string, any[]>>} measurements  every round's, by target and workload
 * @property {import('../targets/common.mjs').Target[]} all       every target (for their floors)
 * @property {import('../targets/common.mjs').Target[]} selected  the targets of this run
 * @property {string[]} workloads
 * @property {string[] | undefined} only          --only
 * @property {import('../workloads/config.mjs').WorkloadConfig} cfg
 * @property {any} childBoot
 * @property {any} memory
 * @property {any} memoryNoCapture
 * @property {any} memoryFloor
 * @property {any} burst
 * @property {any} relay
 */

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

/**
 * The workloads' sections, as lines of Markdown.
 * @param {RunFigures} run
 * @returns {string[]}
 */
export function workloadTables(run) {
  const {
    results,
    selected,
    all,
    workloads,
    cfg,
    childBoot,
    memory,
    memoryNoCapture,
    memoryFloor,
    burst,
    relay,
  } = run;
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
  /** @type {string[]} */
  const lines = [];
  const cap = (/** @type {any} */ x) =>
    `${x?.capped ? '*' : ''}${x?.foreignCpuPct > FOREIGN_WARN ? '†' : ''}`;
  if (workloads.includes('latency')) {
    lines.push(
      `\n### Small tools/call latency (1 session, ${cfg.latN} sequential calls after up to ${cfg.latWarm} warm-up calls, ${cfg.latWarmMaxMs / 1000} s at most)\n`,
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
      `\n### Throughput (${cfg.tpSessions} concurrent sessions, calls in a loop for ${cfg.tpMs / 1000} s after ${cfg.tpWarmMs / 1000} s warm-up)\n`,
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
    const capture = captureCost(run.measurements);
    if (capture) {
      const signed = (/** @type {number} */ x) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}%`;
      lines.push(
        `\nCapture's cost, \`hub\` against \`hub-nocapture\`, round by round (both ran in every round, a new process each): throughput ${signed(capture.median)} (median of ${capture.rounds} rounds; middle half ${signed(capture.q1)} to ${signed(capture.q3)}${capture.ci95 ? `; 95% confidence interval of the median ${signed(capture.ci95.low)} to ${signed(capture.ci95.high)}` : ''}), hub CPU per call ${capture.cpuUs >= 0 ? '+' : '−'}${Math.abs(capture.cpuUs)} µs (median). One round moves by several points; bench/capture-cost.mjs is the dedicated benchmark.`,
      );
    }
  }
  const blobTable = (/** @type {'blob' | 'blob-json'} */ w, /** @type {string} */ what) => {
    lines.push(`\n### 1 MiB results${what} (1 session, ${cfg.blobN} sequential calls of ${w} 1 MiB)\n`);
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
        idsFor(w).map((id) => {
          const row = results[id];
          const x = row[w];
          const s = status(row, w);
          const c = x?.cpuMsPerCall ?? {};
          return s
            ? [row.label, s, '', '', '', '', '', '']
            : [
                row.label,
                `${x.calls}${cap(x)}`,
                x.mibPerSec,
                x.p50,
                ratio(x.mibPerSec, floorOf(id)?.[w]?.mibPerSec),
                c.client ?? '?',
                c.server ?? '–',
                c.children ?? '–',
              ];
        }),
      ),
    );
  };
  if (workloads.includes('blob')) blobTable('blob', '');
  if (workloads.includes('blob-json')) blobTable('blob-json', ' of JSON as text');
  if (workloads.includes('sessions')) {
    lines.push(
      `\n### Session open + close rate (sequential; initialize + initialized, then DELETE; up to ${cfg.sessN} or ${cfg.sessMaxMs / 1000} s)\n`,
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
      return c
        ? [
            `${id}: client ${c.client ?? '?'} ms, server/hub ${c.server ?? '?'} ms, children ${c.children ?? '?'} ms`,
          ]
        : [];
    });
    if (cpuNotes.length) lines.push(`\nCPU per session opened and closed: ${cpuNotes.join('; ')}.`);
    if (childBoot) {
      lines.push(
        `\nBooting one echo server (spawn → initialize answered, median of ${childBoot.sdk.n}): SDK echo-server.mjs ${childBoot.sdk.wallMs} ms wall / ${childBoot.sdk.cpuMs} ms CPU; hand-rolled echo-server-raw.mjs ${childBoot.raw.wallMs} ms wall / ${childBoot.raw.cpuMs} ms CPU. With one child per session, ${os.availableParallelism()} cores can boot at most ≈ ${Math.floor((1000 * os.availableParallelism()) / Math.max(1, childBoot.sdk.cpuMs))} SDK children per second.`,
      );
    }
  }
  memoryTable(
    lines,
    memory,
    'Hub memory per idle session, capture on',
    'shared mode, hub process only',
  );
  memoryTable(
    lines,
    memoryNoCapture,
    'Hub memory per idle session, inspector capture off',
    'shared mode, hub process only',
  );
  memoryTable(
    lines,
    memoryFloor,
    'Floor memory per idle session, sdk-http, measured the same way',
    'the SDK server process',
  );
  if (memory?.kbPerSession !== undefined && memoryFloor?.kbPerSession !== undefined)
    lines.push(
      `\nRSS per idle session: hub (capture on) ${memory.kbPerSession} KiB, hub (capture off) ${memoryNoCapture?.kbPerSession ?? '–'} KiB, floor ${memoryFloor.kbPerSession} KiB.`,
    );
  if (burst)
    lines.push(
      `\n### Start-up burst\n`,
      burst.error ? `error: ${burst.error}` : formatBurst(burst),
    );
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
  return lines;
}

/**
 * One memory measurement's table and its per-session and "flat" lines, pushed to `lines`.
 * @param {string[]} lines @param {any} m @param {string} title @param {string} scope
 */
function memoryTable(lines, m, title, scope) {
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
}
