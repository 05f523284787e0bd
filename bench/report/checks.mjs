// @ts-check
/**
 * The Targets table of bench/run.mjs: the issues' targets (17, 27), as they state them, judged
 * on this run's figures, then the harness's own extra checks.
 */
import { beside, formatChecks, judge } from '../lib/targets.mjs';
import { relayChecks } from '../relay.mjs';

/**
 * @param {import('./tables.mjs').RunFigures} run
 * @returns {import('../lib/targets.mjs').Check[]}
 */
export function runChecks(run) {
  const { results, only, cfg, burst, memory, memoryNoCapture, memoryFloor, relay } = run;
  const floor = results['sdk-http'];
  /** @type {import('../lib/targets.mjs').Check[]} */
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
        target: `${m}: calls/s (${cfg.tpSessions} sessions) ≥ 1.2× floor`,
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
  // Issue 27: the per-session mode at the floor's pace, and the hub's client for remote servers
  // adding no more than its stdio path does.
  if (!only || results.hub)
    checks.push(
      judge({
        target: `per-session: calls/s (${cfg.tpSessions} sessions) ≥ 1.0× floor (issue 27)`,
        value: results.hub?.throughput?.callsPerSec,
        unit: 'calls/s',
        dir: '>=',
        ratioGoal: 1.0,
        ref: floor?.throughput?.callsPerSec,
        refName: 'floor',
        missing: results.hub?.unavailable ?? results.hub?.error ?? notRun('hub throughput'),
      }),
    );
  const remote = results['hub-remote'];
  if (!only || remote) {
    const missing = remote?.unavailable ?? remote?.error ?? notRun('hub-remote');
    const floorP50 = floor?.latency?.p50;
    checks.push(
      judge({
        target: 'hub → remote: tools/call p50 ≤ the direct client\'s (floor) p50 + 0.3 ms (issue 27)',
        value: remote?.latency?.p50,
        unit: 'ms',
        dir: '<=',
        limit: floorP50 !== undefined ? floorP50 + 0.3 : NaN,
        goal: '≤ floor p50 + 0.3 ms',
        measured: remote?.latency ? `${remote.latency.p50} ms (floor ${floorP50 ?? '–'} ms)` : undefined,
        missing: floorP50 === undefined ? 'floor latency not in this run' : missing,
      }),
      judge({
        target: `hub → remote: calls/s (${cfg.tpSessions} sessions) ≥ 0.9× the direct client's (issue 27)`,
        value: remote?.throughput?.callsPerSec,
        unit: 'calls/s',
        dir: '>=',
        ratioGoal: 0.9,
        ref: floor?.throughput?.callsPerSec,
        refName: 'floor',
        missing,
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
        target: `${burst?.sessions ?? cfg.burstN} sessions opened at once ≤ 1.2× ${burst?.sessions ?? cfg.burstN} direct spawns (last answer)${(burst?.sessions ?? cfg.burstN) !== 50 ? ' (the issue: 50)' : ''}`,
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
        target: `hub RSS per idle session ≤ floor's (capture on; ${memory?.sessions ?? cfg.memN} sessions)`,
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
    checks.push(
      ...relayChecks(relay?.error ? undefined : relay, {
        missing: relay?.error ?? notRun('relay'),
      }),
    );

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
  return checks;
}

/**
 * The Targets section (nothing when there is nothing to judge), as lines of Markdown.
 * @param {import('../lib/targets.mjs').Check[]} checks
 * @returns {string[]}
 */
export function checksSection(checks) {
  if (checks.length === 0) return [];
  const judged = checks.filter((c) => !c.extra && c.met !== undefined);
  return [
    '\n### Targets (issues 17 and 27; "(extra)": the harness\'s own checks)\n',
    formatChecks(checks),
    `\nIssue targets: ${judged.filter((c) => c.met).length} met, ${judged.filter((c) => !c.met).length} missed, ${checks.filter((c) => !c.extra && c.result.startsWith('not measured')).length} not measured.`,
  ];
}
