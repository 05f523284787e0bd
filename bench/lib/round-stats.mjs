// @ts-check
/**
 * Statistics of benchmark rounds, shared by bench/run.mjs and bench/capture-cost.mjs: quantiles
 * (the median, the middle half) and a confidence interval for the median. NaNs (a round whose
 * figure could not be read) are ignored everywhere.
 */

/**
 * The value at quantile `q` (0…1) of the values, taken from the sorted values without
 * interpolation (index round((n − 1)·q)); NaN when there are none.
 * @param {number[]} values @param {number} q
 */
export function quantile(values, q) {
  const xs = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return xs[Math.round((xs.length - 1) * q)] ?? NaN;
}

/** @param {number[]} values */
export const median = (values) => quantile(values, 0.5);

/**
 * The median of rounds, their middle half (how far one round's figure can be trusted) and the
 * 95% interval of the median (how well the rounds pin it).
 * @param {number[]} values
 */
export function spread(values) {
  return {
    median: median(values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    ci95: medianInterval(values),
  };
}

/**
 * A distribution-free confidence interval for a median, from order statistics: with n values
 * sorted, the interval [x(j), x(n−1−j)] (0-based) holds the true median with probability
 * 1 − 2·P(B ≤ j), B ~ Binomial(n, ½), whatever the values' distribution. The benchmarks' rounds
 * are far from normal (a burst of other work on the machine makes one round read 20 points off),
 * so this is the interval to print beside a median of rounds, not mean ± 2 SE.
 */

/**
 * @param {number[]} values NaNs are ignored
 * @param {number} [confidence] 0.95 unless given
 * @returns {{ low: number, high: number, coverage: number } | undefined} the narrowest such
 *   interval with at least `confidence` coverage; undefined when too few values reach it (under
 *   six for 95%: even the whole range covers only 1 − 2·½ⁿ)
 */
export function medianInterval(values, confidence = 0.95) {
  const xs = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const n = xs.length;
  /** @type {{ low: number, high: number, coverage: number } | undefined} */
  let best;
  // pmf of Binomial(n, ½) at 0, then at each j in turn; cdf is P(B ≤ j).
  let pmf = 0.5 ** n;
  let cdf = pmf;
  for (let j = 0; 2 * j < n - 1; j++) {
    const coverage = 1 - 2 * cdf;
    if (coverage < confidence) break;
    best = {
      low: /** @type {number} */ (xs[j]),
      high: /** @type {number} */ (xs[n - 1 - j]),
      coverage,
    };
    pmf = (pmf * (n - j)) / (j + 1);
    cdf += pmf;
  }
  return best;
}
