import { onCleanup } from './cleanup.js';

/** Sets an environment variable of this process (an in-process hub's) for the rest of the test. */
export function setEnv(name: string, value: string): void {
  const before = process.env[name];
  process.env[name] = value;
  onCleanup(() => {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  });
}
