// @ts-check
/**
 * Other work on the machine: the threshold above which a figure counts as disturbed, and the
 * wait for quiet that bench/run.mjs does before a target (--wait-quiet).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSnapshot, foreignCpuPct } from './proc.mjs';

/** Percent of the machine's CPU used by processes outside the bench above which a figure is flagged. */
export const FOREIGN_WARN = 10;

/**
 * With --wait-quiet S: before each target, wait up to S seconds for the machine to be quiet
 * (other processes using under FOREIGN_WARN% of its CPU over 2 s), so a shared machine's other
 * work does not land in the figures. Figures taken anyway are flagged with † in the tables.
 * @param {number} seconds
 */
export async function waitQuiet(seconds) {
  const limit = seconds * 1000;
  if (!(limit > 0)) return;
  const deadline = Date.now() + limit;
  for (let first = true; ; first = false) {
    const a = cpuSnapshot();
    await sleep(2000);
    const busy = foreignCpuPct(a, cpuSnapshot());
    if (busy === undefined || busy < FOREIGN_WARN) return;
    if (first)
      console.error(
        `bench: other processes use ${busy}% of the CPU; waiting up to ${limit / 1000} s for quiet`,
      );
    if (Date.now() > deadline) {
      console.error(
        `bench: still ${busy}% busy with other work; measuring anyway (figures flagged †)`,
      );
      return;
    }
  }
}
