/**
 * What the test process itself holds, for tests that bound the hub's memory while it runs in the
 * test process: the live JS heap and external (Buffer) memory after a full GC.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export const MiB = 1024 * 1024;

/** Live heap + external bytes after two full GCs (the second collects what the first's finalizers freed). */
export function liveBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}
