/**
 * The probe server's `flood` tool (test/fixtures/probe-server.mjs) writes how far it got to a
 * `waitFile` whenever its stdout makes it wait, and creates `doneFile` when it finished.
 */
import { existsSync, readFileSync } from 'node:fs';
import { waitFor } from './waits.js';

/** Where one flood says how far it got (`waitFile`) and that it finished (`doneFile`). */
export interface FloodFiles {
  doneFile: string;
  waitFile: string;
}

/**
 * Waits until the flood stands still: it has had to wait for its stdout and the count it reached
 * has not moved for two seconds (eight looks 250 ms apart), or it is done. Standing still is an
 * absence of events, so this one wait polls; the assertions that follow hold whenever it returns.
 *
 * Several floods (an array, e.g. concurrent calls on one child) are one flood for this: it stands
 * still once every one of them that is not done has had to wait and none has moved for two
 * seconds, and it is done once all are.
 */
export async function floodHeldBack(files: FloodFiles | FloodFiles[]): Promise<void> {
  const floods = Array.isArray(files) ? files : [files];
  let last = '';
  let still = 0;
  await waitFor(
    () => {
      const states = floods.map((f) => (existsSync(f.doneFile) ? 'done' : existsSync(f.waitFile) ? readFileSync(f.waitFile, 'utf8') : ''));
      if (states.every((s) => s === 'done')) return true;
      const now = states.join(',');
      still = !states.includes('') && now === last ? still + 1 : 0;
      last = now;
      return still >= 8;
    },
    'the flood to stand still',
    120_000,
    250,
  );
}
