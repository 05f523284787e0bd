/**
 * The per-test lifecycle every helper shares: things a test starts (engines, temp dirs, sockets,
 * processes) register their undo here and are undone after the test, in reverse order. Importing
 * this module registers the `afterEach` hook, and keeps the engine's log quiet in this process.
 */
import { afterEach } from 'vitest';
import { setLogLevel } from '../../src/main/core/log/logger.js';
import { fixtureChildren, killQuietly } from './processes.js';

// Keep the engine's own log quiet unless a test asks for more (or PATCHBAY_LOG_LEVEL is set).
if (!process.env.PATCHBAY_LOG_LEVEL) setLogLevel('warn');

type Cleanup = () => unknown;
const cleanups: Cleanup[] = [];

/** Registers something to undo after the current test (run in reverse order). */
export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
}

afterEach(async () => {
  const errors: unknown[] = [];
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch (err) {
      errors.push(err);
    }
  }
  // Last line of defence: no fixture process this test started may outlive it.
  for (const pid of fixtureChildren()) killQuietly(pid, 'SIGKILL');
  if (errors.length > 0) throw errors[0];
});
