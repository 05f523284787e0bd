// @ts-check
/**
 * The burst workload: N initializes at once through the hub vs N direct spawns of the same
 * server (bench/burst.mjs, which is also a script of its own). Run once per run.
 */
import { burstRound } from '../burst.mjs';
import { ECHO } from '../lib/paths.mjs';
import { hubBuild } from '../targets/hub.mjs';

/**
 * One round against the run's build snapshot; a failure is recorded as its `error`.
 * @param {import('./config.mjs').OnceContext} ctx
 * @returns {Promise<any>}
 */
export async function burstRun({ cfg, quiet, errors }) {
  await quiet();
  console.error(
    `bench: start-up burst (${cfg.burstN} initializes at once, hub vs direct spawns) …`,
  );
  try {
    return await burstRound({ server: ECHO, sessions: cfg.burstN, build: hubBuild() });
  } catch (err) {
    errors.push(`burst: ${/** @type {Error} */ (err).message}`);
    return { error: /** @type {Error} */ (err).message };
  }
}
