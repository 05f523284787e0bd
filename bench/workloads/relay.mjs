// @ts-check
/**
 * The relay workload: the relay direction (bench/relay.mjs, run in-process: `patchbay relay` via
 * a running hub and `--url` beside mcp-remote; cold start, latency, exit after stdin closes).
 * Run once per run, against the run's build snapshot.
 */
import { runRelayBench } from '../relay.mjs';
import { hubBuild } from '../targets/hub.mjs';

/**
 * @param {Omit<import('./config.mjs').OnceContext, 'cfg'> & { quick: boolean, skipInstall: boolean }} ctx
 *   quick: 3 runs and 100 calls; skipInstall: mcp-remote is not installed (its row reads unavailable)
 * @returns {Promise<any>} the relay's results, or `{ error }`
 */
export async function relayRun({ quick, skipInstall, quiet, errors }) {
  await quiet();
  console.error('bench: relay direction (bench/relay.mjs) …');
  try {
    const relay = await runRelayBench({
      quick,
      skipInstall,
      build: hubBuild(),
      log: (line) => console.error(line),
    });
    if (relay.failed) {
      const failed = Object.entries(relay.results)
        .filter(([, r]) => /** @type {any} */ (r).error)
        .map(([id, r]) => `${id}: ${/** @type {any} */ (r).error}`);
      errors.push(`relay: ${failed.join('; ')}`);
    }
    return relay;
  } catch (err) {
    errors.push(`relay: ${/** @type {Error} */ (err).message}`);
    return { error: /** @type {Error} */ (err).message };
  }
}
