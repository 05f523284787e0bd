// @ts-check
/**
 * Where bench/run.mjs and the modules it is split into (targets/, workloads/, report/) find the
 * benchmark's files, and the stamp its result files are named with.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO = path.resolve(BENCH, '..');
export const ECHO = path.join(BENCH, 'echo-server.mjs');
export const ECHO_RAW = path.join(BENCH, 'echo-server-raw.mjs');
export const SDK_HTTP = path.join(BENCH, 'sdk-http-server.mjs');
export const PEERS = path.join(BENCH, '.peers');
export const RESULTS = path.join(BENCH, 'results');
export const NODE = process.execPath;

/** The time, for file names under bench/results: 2026-01-31_12-00-00. */
export function timestamp() {
  return new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
}
