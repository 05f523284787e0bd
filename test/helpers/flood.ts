/**
 * The probe server's `flood` tool (test/fixtures/probe-server.mjs) writes how far it got to a
 * `waitFile` whenever its stdout makes it wait, and creates `doneFile` when it finished.
 */
import { existsSync, readFileSync } from 'node:fs';
import { waitFor } from './waits.js';

/**
 * Waits until the flood stands still: it has had to wait for its stdout and the count it reached
 * has not moved for two seconds (eight looks 250 ms apart), or it is done. Standing still is an
 * absence of events, so this one wait polls; the assertions that follow hold whenever it returns.
 */
export async function floodHeldBack(files: { doneFile: string; waitFile: string }): Promise<void> {
  let last = '';
  let still = 0;
  await waitFor(
    () => {
      if (existsSync(files.doneFile)) return true;
      const now = existsSync(files.waitFile) ? readFileSync(files.waitFile, 'utf8') : '';
      still = now !== '' && now === last ? still + 1 : 0;
      last = now;
      return still >= 8;
    },
    'the flood to stand still',
    120_000,
    250,
  );
}
