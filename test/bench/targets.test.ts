/**
 * How the benchmarks judge a figure against a target (bench/lib/targets.mjs): ratio targets
 * against a reference, absolute limits, the exit-time summary with runs that did not exit, and
 * rows that cannot be judged. No benchmark runs here.
 */
import { describe, expect, it } from 'vitest';
import { beside, exitSummary, exitText, formatChecks, judge, judgeExit, table, tally } from '../../bench/lib/targets.mjs';

describe('judge: a ratio to a reference', () => {
  it('meets p50 ≤ 0.8× the floor with the margin in ratio and in ms', () => {
    const c = judge({ target: 'p50', value: 1.5, unit: 'ms', dir: '<=', ratioGoal: 0.8, ref: 2.5, refName: 'floor' });
    expect(c.met).toBe(true);
    expect(c.goal).toBe('≤ 0.8× floor (≤ 2 ms)');
    expect(c.measured).toBe('1.5 ms (floor 2.5 ms)');
    expect(c.ratio).toBe('0.60× floor');
    expect(c.result).toBe('MET, 0.20× floor, 0.5 ms to spare');
  });

  it('misses calls/s ≥ 1.2× the floor and says by how much', () => {
    const c = judge({ target: 'calls/s', value: 500, unit: 'calls/s', dir: '>=', ratioGoal: 1.2, ref: 500, refName: 'floor' });
    expect(c.met).toBe(false);
    expect(c.goal).toBe('≥ 1.2× floor (≥ 600 calls/s)');
    expect(c.ratio).toBe('1.00× floor');
    expect(c.result).toBe('MISSED by 0.20× floor, 100 calls/s');
  });

  it('a limit exactly reached is met (≥ 1.0×)', () => {
    const c = judge({ target: 'blob', value: 80, unit: 'MiB/s', dir: '>=', ratioGoal: 1.0, ref: 80, refName: 'floor' });
    expect(c.met).toBe(true);
    expect(c.goal).toBe('≥ 1.0× floor (≥ 80 MiB/s)');
  });

  it('compares against a reference of zero or below without printing a ratio', () => {
    const c = judge({ target: 'rss', value: 3, unit: 'KiB', dir: '<=', ratioGoal: 1.0, ref: -1, refName: 'floor' });
    expect(c.met).toBe(false);
    expect(c.ratio).toBe('–');
    expect(c.result).toBe('MISSED by 4 KiB');
  });

  it('without the reference it is not judged, and says why', () => {
    const c = judge({ target: 'p50', value: 1, unit: 'ms', dir: '<=', ratioGoal: 0.6, ref: undefined, refName: 'mcp-remote' });
    expect(c.met).toBeUndefined();
    expect(c.goal).toBe('≤ 0.6× mcp-remote');
    expect(c.measured).toBe('1 ms');
    expect(c.result).toBe('not measured (mcp-remote not measured)');
  });
});

describe('judge: an absolute limit', () => {
  it('meets ≥ 20 sessions/s', () => {
    const c = judge({ target: 'sessions', value: 25.5, unit: 'sessions/s', dir: '>=', limit: 20 });
    expect(c).toMatchObject({ met: true, goal: '≥ 20 sessions/s', ratio: '1.27× limit', result: 'MET, 5.5 sessions/s to spare' });
  });

  it('misses ≤ 150 ms, with the overshoot as a ratio of the limit', () => {
    const c = judge({ target: 'start', value: 212.4, unit: 'ms', dir: '<=', limit: 150, measured: 'p50 212 ms' });
    expect(c).toMatchObject({ met: false, measured: 'p50 212 ms', result: 'MISSED by 62.4 ms (1.42× the limit)' });
  });

  it('a missing figure is not judged and carries the reason', () => {
    const c = judge({ target: 'start', value: undefined, unit: 'ms', dir: '<=', limit: 150, missing: 'unavailable: not installed' });
    expect(c).toMatchObject({ met: undefined, measured: '–', result: 'not measured (unavailable: not installed)' });
    expect(judge({ target: 'x', value: NaN, unit: 'ms', dir: '<=', limit: 1 }).result).toBe('not measured (no figure)');
  });
});

describe('exit after stdin closes', () => {
  it('summarises the runs that exited: p50 and max', () => {
    expect(exitSummary([120, 40.04, 80], 3000)).toEqual({ n: 3, exited: 3, notExited: 0, waitMs: 3000, p50: 80, max: 120 });
  });

  it('counts the runs that did not exit', () => {
    const x = exitSummary([100, undefined, undefined], 3000);
    expect(x).toEqual({ n: 3, exited: 1, notExited: 2, waitMs: 3000, p50: 100, max: 100 });
    expect(exitText(x)).toBe('did not exit within 3000 ms in 2 of 3 runs; the others: max 100 ms, p50 100 ms');
    expect(exitSummary([undefined], 500)).toMatchObject({ exited: 0, p50: undefined, max: undefined });
  });

  it('judges every run: the slowest decides', () => {
    expect(judgeExit('gone', exitSummary([30, 40, 499], 3000), 500)).toMatchObject({ met: true, measured: 'max 499 ms, p50 40 ms (3 runs)' });
    expect(judgeExit('gone', exitSummary([30, 40, 501], 3000), 500)).toMatchObject({ met: false, result: 'MISSED by 1 ms (1.00× the limit)' });
  });

  it('a run that did not exit misses the target outright', () => {
    const c = judgeExit('gone', exitSummary([30, undefined], 3000), 500);
    expect(c.met).toBe(false);
    expect(c.measured).toBe('did not exit within 3000 ms in 1 of 2 runs (the others: max 30 ms)');
    expect(c.result).toBe('MISSED by over 2500 ms (killed after 3000 ms)');
  });

  it('no runs: not judged', () => {
    expect(judgeExit('gone', undefined, 500, { missing: 'unavailable' })).toMatchObject({ met: undefined, result: 'not measured (unavailable)' });
  });
});

describe('tables', () => {
  it('pads columns, left-aligning the leading ones', () => {
    expect(table(['a', 'bb'], [['xyz', 1]])).toBe(['| a   | bb |', '|-----|---:|', '| xyz |  1 |'].join('\n'));
    expect(table(['a', 'b', 'c'], [['1', '2', '3']], { left: 2 }).split('\n')[1]).toBe('|---|---|--:|');
    expect(table(['a', 'b', 'c'], [['1', '2', '3']], { align: 'rll' }).split('\n')[1]).toBe('|--:|---|---|');
  });

  it('the Targets table marks extra rows and tallies verdicts', () => {
    const checks = [
      judge({ target: 'a', value: 1, unit: 'ms', dir: '<=', limit: 2 }),
      judge({ target: 'b', value: 3, unit: 'ms', dir: '<=', limit: 2, extra: true }),
      beside({ target: 'c', goal: 'no target', measured: '1 ms', ratio: '–', result: 'for comparison' }),
    ];
    const text = formatChecks(checks);
    expect(text.split('\n')[0]).toMatch(/^\| target +\| goal +\| measured +\| +ratio \| result +\|$/);
    expect(text).toContain('| (extra) b ');
    expect(tally(checks)).toEqual({ met: 1, missed: 1, unjudged: 1 });
  });
});
