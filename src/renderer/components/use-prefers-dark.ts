import { useSyncExternalStore } from 'react';

const query = (): MediaQueryList | undefined => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : undefined);

/** Follows the system theme live (the CSS does the same with a media query). */
export function usePrefersDark(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const q = query();
      q?.addEventListener('change', onChange);
      return () => q?.removeEventListener('change', onChange);
    },
    () => query()?.matches ?? false,
  );
}
