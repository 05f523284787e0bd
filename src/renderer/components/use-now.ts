/**
 * A clock that ticks while something on screen needs it (a running call's elapsed time): one
 * interval for every subscriber, stopped when the last one goes away.
 */
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let now = Date.now();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 200);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time in ms, refreshed five times a second while `active`. */
export function useNow(active = true): number {
  return useSyncExternalStore(active ? subscribe : noSubscribe, () => (active ? now : 0));
}

function noSubscribe(): () => void {
  return () => {};
}
