// @ts-check
/**
 * Judging figures against targets, and the tables the benchmarks print: pure helpers shared by
 * bench/run.mjs (its report, bench/report/) and bench/relay.mjs (and unit-tested in
 * test/bench/targets.test.ts). The targets measured (hub, floor, gateways) are bench/targets/.
 *
 * A target is either a ratio to a reference figure (p50 ≤ 0.8× the floor's: `ratioGoal` 0.8 and
 * `ref` the floor's p50) or an absolute limit (≤ 150 ms: `limit` 150). Every judged row states the
 * goal, the figure, its ratio (to the reference, or to the limit), and MET or MISSED with by how
 * much. Rows with nothing to judge (a figure shown beside a target) carry `met: undefined`.
 */

/**
 * @typedef {object} Check
 * @property {string} target    what is asked, in words
 * @property {string} goal      the threshold, e.g. "≤ 0.8× floor (≤ 1.75 ms)"
 * @property {string} measured  the figure (with what it was compared to)
 * @property {string} ratio     the figure over its reference or its limit ('–' when none)
 * @property {boolean | undefined} met  undefined: not measured, or shown beside (no verdict)
 * @property {string} result    "MET, … to spare", "MISSED by …", "not measured: …", or a note
 * @property {boolean} [extra]  a check of the harness's own, not one of the issue's targets
 */

/** A figure for a table: whole numbers from 100 up, else at most 3 decimals. @param {number} x */
export function fmt(x) {
  if (!Number.isFinite(x)) return String(x);
  return Math.abs(x) >= 100 ? String(Math.round(x)) : String(Math.round(x * 1000) / 1000);
}

/** @param {number} x */
const times = (x) => `${x.toFixed(2)}×`;

/**
 * Judges one figure.
 * @param {object} o
 * @param {string} o.target             what is asked
 * @param {number | undefined} o.value  the figure
 * @param {string} o.unit               its unit ('ms', 'calls/s', …)
 * @param {'<=' | '>='} o.dir           the figure must be at most / at least the limit
 * @param {number} [o.limit]            an absolute limit, in `unit`
 * @param {number} [o.ratioGoal]        or: a limit of ratioGoal × ref
 * @param {number | undefined} [o.ref]  the reference figure (the floor's, mcp-remote's), in `unit`
 * @param {string} [o.refName]          what the reference is ("floor", "mcp-remote")
 * @param {string} [o.goal]             the goal in words, shown when the limit is not known (its reference was not measured)
 * @param {string} [o.measured]         the figure as printed (default: value and unit, and the reference)
 * @param {string} [o.missing]          why the figure may be missing (printed when it is)
 * @param {boolean} [o.extra]
 * @returns {Check}
 */
export function judge(o) {
  const sym = o.dir === '<=' ? '≤' : '≥';
  const refName = o.refName ?? 'reference';
  const byRatio = o.ratioGoal !== undefined;
  const refOk = o.ref !== undefined && Number.isFinite(o.ref);
  const limit = byRatio ? (refOk ? /** @type {number} */ (o.ratioGoal) * /** @type {number} */ (o.ref) : undefined) : o.limit;
  const limitOk = limit !== undefined && Number.isFinite(limit);
  const goal = byRatio
    ? `${sym} ${/** @type {number} */ (o.ratioGoal).toFixed(1)}× ${refName}${limitOk ? ` (${sym} ${fmt(/** @type {number} */ (limit))} ${o.unit})` : ''}`
    : limitOk
      ? `${sym} ${fmt(/** @type {number} */ (o.limit))} ${o.unit}`
      : (o.goal ?? `${sym} (a reference not measured)`);
  const extra = o.extra ? { extra: true } : {};
  if (o.value === undefined || !Number.isFinite(o.value) || !limitOk) {
    const what = o.value === undefined || !Number.isFinite(o.value) ? o.missing ?? 'no figure' : `${refName} not measured`;
    return { target: o.target, goal, measured: o.value !== undefined && Number.isFinite(o.value) ? `${fmt(o.value)} ${o.unit}` : '–', ratio: '–', met: undefined, result: `not measured (${what})`, ...extra };
  }
  const value = o.value;
  const lim = /** @type {number} */ (limit);
  const met = o.dir === '<=' ? value <= lim : value >= lim;
  const diff = Math.abs(value - lim);
  const ref = /** @type {number} */ (o.ref);
  // A ratio needs a positive reference (an RSS growth read as 0 or below has none).
  const ratioOf = byRatio && ref > 0 ? value / ref : undefined;
  const measured = o.measured ?? `${fmt(value)} ${o.unit}${byRatio ? ` (${refName} ${fmt(ref)} ${o.unit})` : ''}`;
  if (byRatio) {
    const ratio = ratioOf !== undefined ? `${times(ratioOf)} ${refName}` : '–';
    const by = ratioOf !== undefined ? `${Math.abs(ratioOf - /** @type {number} */ (o.ratioGoal)).toFixed(2)}× ${refName}, ${fmt(diff)} ${o.unit}` : `${fmt(diff)} ${o.unit}`;
    return { target: o.target, goal, measured, ratio, met, result: met ? `MET, ${by} to spare` : `MISSED by ${by}`, ...extra };
  }
  const ratio = lim !== 0 ? `${times(value / lim)} limit` : '–';
  return {
    target: o.target,
    goal,
    measured,
    ratio,
    met,
    result: met ? `MET, ${fmt(diff)} ${o.unit} to spare` : `MISSED by ${fmt(diff)} ${o.unit}${lim !== 0 ? ` (${times(value / lim)} the limit)` : ''}`,
    ...extra,
  };
}

/**
 * A row with no verdict: a figure shown beside the targets (mcp-remote's exit time, capture-on
 * heap growth). @param {Omit<Check, 'met'>} row @returns {Check}
 */
export function beside(row) {
  return { ...row, met: undefined };
}

/**
 * The Targets table. @param {Check[]} checks
 */
export function formatChecks(checks) {
  return table(
    ['target', 'goal', 'measured', 'ratio', 'result'],
    checks.map((c) => [`${c.extra ? '(extra) ' : ''}${c.target}`, c.goal, c.measured, c.ratio, c.result]),
    { align: 'lllrl' },
  );
}

/** Count of met and missed among judged rows. @param {Check[]} checks */
export function tally(checks) {
  return {
    met: checks.filter((c) => c.met === true).length,
    missed: checks.filter((c) => c.met === false).length,
    unjudged: checks.filter((c) => c.met === undefined).length,
  };
}

/**
 * A Markdown table, columns padded. Alignment: `align`, one letter per column ('l' or 'r'), or
 * else the first `left` columns (default 1) left-aligned and the rest right-aligned.
 * @param {string[]} head @param {Array<Array<string | number>>} rows
 * @param {{ left?: number, align?: string }} [o]
 */
export function table(head, rows, o = {}) {
  const isLeft = (/** @type {number} */ i) => (o.align ? o.align[i] === 'l' : i < (o.left ?? 1));
  const cells = [head, ...rows.map((r) => r.map((c) => String(c)))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (/** @type {string[]} */ r) =>
    `| ${r.map((c, i) => (isLeft(i) ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  return [
    line(head),
    `|${widths.map((w, i) => (isLeft(i) ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n');
}

/**
 * Exit times of a process after its stdin closed, one per run: ms, or undefined for a run where
 * it did not exit within `waitMs` (and was killed). p50 and max are over the runs that exited.
 * @param {Array<number | undefined>} samples @param {number} waitMs
 */
export function exitSummary(samples, waitMs) {
  const exited = /** @type {number[]} */ (samples.filter((x) => x !== undefined && Number.isFinite(x))).sort((a, b) => a - b);
  const r1 = (/** @type {number} */ x) => Math.round(x * 10) / 10;
  return {
    n: samples.length,
    exited: exited.length,
    notExited: samples.length - exited.length,
    waitMs,
    p50: exited.length ? r1(/** @type {number} */ (exited[Math.floor((exited.length - 1) / 2)])) : undefined,
    max: exited.length ? r1(/** @type {number} */ (exited[exited.length - 1])) : undefined,
  };
}

/**
 * The "gone within N ms of its stdin closing" target, judged on every run (the slowest one): a run
 * that did not exit within the bounded wait misses it outright.
 * @param {string} target @param {ReturnType<typeof exitSummary> | undefined} x @param {number} limitMs
 * @param {{ missing?: string }} [o]
 * @returns {Check}
 */
export function judgeExit(target, x, limitMs, o = {}) {
  if (!x || x.n === 0) return judge({ target, value: undefined, unit: 'ms', dir: '<=', limit: limitMs, missing: o.missing });
  if (x.notExited > 0)
    return {
      target,
      goal: `≤ ${limitMs} ms`,
      measured: `did not exit within ${x.waitMs} ms in ${x.notExited} of ${x.n} runs${x.exited ? ` (the others: max ${fmt(/** @type {number} */ (x.max))} ms)` : ''}`,
      ratio: `> ${times(x.waitMs / limitMs)} limit`,
      met: false,
      result: `MISSED by over ${fmt(x.waitMs - limitMs)} ms (killed after ${x.waitMs} ms)`,
    };
  return judge({ target, value: x.max, unit: 'ms', dir: '<=', limit: limitMs, measured: `max ${fmt(/** @type {number} */ (x.max))} ms, p50 ${fmt(/** @type {number} */ (x.p50))} ms (${x.n} runs)` });
}

/** The exit figure as text (for a row shown beside a target). @param {ReturnType<typeof exitSummary> | undefined} x */
export function exitText(x) {
  if (!x || x.n === 0) return '–';
  const ran = x.exited ? `max ${fmt(/** @type {number} */ (x.max))} ms, p50 ${fmt(/** @type {number} */ (x.p50))} ms` : '';
  if (x.notExited === 0) return `${ran} (${x.n} runs)`;
  return `did not exit within ${x.waitMs} ms in ${x.notExited} of ${x.n} runs${ran ? `; the others: ${ran}` : ''}`;
}
