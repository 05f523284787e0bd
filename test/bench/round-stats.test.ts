/**
 * The statistics both benchmarks print for their rounds. The confidence interval of the median is
 * checked
 * against exact binomial sums (BigInt, computed here independently) and by simulation: drawn
 * from a skewed distribution with a known median, the interval holds it at least 95% of the time.
 */
import { describe, expect, it } from 'vitest';
import { median, medianInterval, quantile, spread } from '../../bench/lib/round-stats.mjs';

/** 1 − 2·P(B ≤ j) for B ~ Binomial(n, ½), exactly. */
function exactCoverage(n: number, j: number): number {
  let below = 0n;
  let c = 1n; // C(n, 0)
  for (let i = 0; i <= j; i++) {
    below += c;
    c = (c * BigInt(n - i)) / BigInt(i + 1);
  }
  return 1 - (2 * Number(below)) / 2 ** n;
}

/** A seeded generator (mulberry32): the simulation reads the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('quantile, median, spread', () => {
  it('read sorted values without interpolating, and ignore NaN', () => {
    const values = [40, NaN, 10, 30, 20, 50];
    expect(median(values)).toBe(30);
    expect(quantile(values, 0)).toBe(10);
    expect(quantile(values, 0.25)).toBe(20);
    expect(quantile(values, 0.75)).toBe(40);
    expect(quantile(values, 1)).toBe(50);
    expect(median([NaN])).toBeNaN();
    expect(spread(values)).toEqual({ median: 30, q1: 20, q3: 40, ci95: undefined });
    const ten = spread([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ten.ci95).toMatchObject({ low: 1, high: 8 });
  });
});

describe('medianInterval', () => {
  it('needs six values for 95%: under that even the whole range covers too little', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
    expect(medianInterval([])).toBeUndefined();
    expect(medianInterval([6, 1, 5, 2, 4, 3])).toEqual({ low: 1, high: 6, coverage: exactCoverage(6, 0) });
  });

  it('takes the narrowest ranks whose exact binomial coverage is at least 95%', () => {
    const values = Array.from({ length: 30 }, (_, i) => 29 - i); // 0…29, reversed: it sorts
    const ci = medianInterval(values)!;
    // For n = 30 the ranks are the 10th and the 21st smallest (0-based 9 and 20).
    expect([ci.low, ci.high]).toEqual([9, 20]);
    expect(ci.coverage).toBeCloseTo(exactCoverage(30, 9), 12);
    expect(exactCoverage(30, 9)).toBeGreaterThanOrEqual(0.95);
    expect(exactCoverage(30, 10)).toBeLessThan(0.95);
  });

  it('ignores NaN and honours another confidence', () => {
    const values = [3, NaN, 1, 2, 5, 4, 6, 7, 8, NaN];
    expect(medianInterval(values)).toEqual(medianInterval([1, 2, 3, 4, 5, 6, 7, 8]));
    const wide = medianInterval(values, 0.99)!;
    expect([wide.low, wide.high]).toEqual([1, 8]);
    const narrow = medianInterval(values, 0.5)!;
    expect(narrow.high - narrow.low).toBeLessThan(7);
  });

  it('holds the true median at least 95% of the time for skewed data', () => {
    const next = random(42);
    // Exponential with rate 1: median ln 2, and a long tail like a noisy benchmark's rounds.
    const median = Math.LN2;
    const trials = 2000;
    let held = 0;
    for (let t = 0; t < trials; t++) {
      const xs = Array.from({ length: 30 }, () => -Math.log(1 - next()));
      const ci = medianInterval(xs)!;
      if (ci.low <= median && median <= ci.high) held++;
    }
    // Exact coverage is 95.7%; 2000 trials put the count within ±1.5 points of it.
    expect(held / trials).toBeGreaterThan(0.94);
    expect(held / trials).toBeLessThan(0.975);
  });
});
