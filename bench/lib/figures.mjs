// @ts-check
/** Rounding and percentiles for the figures the workloads of bench/run.mjs report. */

/** Nearest-rank percentile of a sorted array. @param {number[]} sorted @param {number} q */
export function pct(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}
export const r2 = (/** @type {number} */ x) => Math.round(x * 100) / 100;
export const r3 = (/** @type {number} */ x) => Math.round(x * 1000) / 1000;
