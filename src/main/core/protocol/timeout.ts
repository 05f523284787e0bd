/**
 * The engine's one way to put a deadline on something. Timers never keep the process alive:
 * a deadline is about an answer, not a reason to stay up.
 */

/**
 * Settles as `promise` does, or once `ms` have passed with what `expired` returns (a value) or
 * throws (a rejection) — whichever comes first. The timer is cleared either way.
 */
export function withTimeout<T, U = never>(promise: Promise<T>, ms: number, expired: () => U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<U>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(expired());
      } catch (err) {
        reject(err as Error);
      }
    }, ms);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms` (without keeping the process alive). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
