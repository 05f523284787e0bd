/** The pipeline's clock: the taps read performance.now(); events carry epoch ms. */
import { performance } from 'node:perf_hooks';

/** performance.timeOrigin is a getter into the runtime: read it once. */
const TIME_ORIGIN = performance.timeOrigin;

/**
 * performance.now() as epoch ms, to the µs: times are kept (and written) from whole µs, which
 * is as fine as the clock is useful and makes them cheap to write.
 */
export function epochMs(t: number): number {
  return Math.round((TIME_ORIGIN + t) * 1000) / 1000;
}
