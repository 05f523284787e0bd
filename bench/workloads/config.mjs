// @ts-check
/** The workloads of bench/run.mjs by name, and their counts and time caps. */

export const WORKLOADS = ['latency', 'throughput', 'blob', 'blob-json', 'sessions', 'memory', 'burst', 'relay'];
/** Workloads run once per run, after the per-target ones (not against each target). */
export const ONCE = ['memory', 'burst', 'relay'];

/**
 * Counts and time caps. Every loop is bounded by both a count and a wall-clock cap.
 * @param {boolean} quick  --quick: small counts
 */
export function workloadConfig(quick) {
  return quick
    ? {
        latWarm: 20,
        latWarmMaxMs: 1000,
        latN: 200,
        latMaxMs: 4000,
        tpSessions: 16,
        tpWarmMs: 500,
        tpMs: 2000,
        blobWarm: 1,
        blobN: 10,
        blobMaxMs: 10_000,
        sessWarm: 2,
        sessN: 20,
        sessMaxMs: 4000,
        memN: 200,
        memOpenMaxMs: 30_000,
        memCycles: 2,
        burstN: 20,
      }
    : {
        // Servers here run for hours: measure them warm. A hub's proxy path takes a few thousand
        // calls to reach V8's optimised code (its p50 fell 2.5 → 1.0 ms over the first 3,000
        // calls here, the SDK server's 1.1 → 0.65), so a short warm-up measured mostly the JIT.
        latWarm: 3000,
        latWarmMaxMs: 5000,
        latN: 1000,
        latMaxMs: 10_000,
        tpSessions: 16,
        tpWarmMs: 1000,
        tpMs: 5000,
        blobWarm: 10,
        blobN: 50,
        blobMaxMs: 15_000,
        sessWarm: 3,
        sessN: 100,
        sessMaxMs: 10_000,
        memN: 1000,
        memOpenMaxMs: 120_000,
        memCycles: 3,
        burstN: 50,
      };
}

/** @typedef {ReturnType<typeof workloadConfig>} WorkloadConfig */

/**
 * What the workloads run once per run (memory, burst, relay) get from bench/run.mjs.
 * @typedef {object} OnceContext
 * @property {WorkloadConfig} cfg
 * @property {() => Promise<void>} quiet  waits for the machine to be quiet (--wait-quiet)
 * @property {string[]} errors            where a failure is recorded (the run then exits 1)
 */
