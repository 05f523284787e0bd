/**
 * Hash routes (`#/servers`, `#/sessions/<id>`): they work the same from `/ui/` on the hub and from
 * a file in the Electron window, and need no server-side fallback.
 */
import { useSyncExternalStore } from 'react';

export type Route =
  | { screen: 'servers'; serverId?: string; mode?: 'new' | 'edit' | 'import' }
  | { screen: 'keys' }
  | { screen: 'sessions'; sessionId?: string }
  | { screen: 'clients' }
  | { screen: 'settings' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(safeDecode);
  const [screen, a, b] = parts;
  switch (screen) {
    case 'keys':
      return { screen: 'keys' };
    case 'sessions':
      return a ? { screen: 'sessions', sessionId: a } : { screen: 'sessions' };
    case 'clients':
      return { screen: 'clients' };
    case 'settings':
      return { screen: 'settings' };
    case 'servers':
    default:
      if (a === 'new') return { screen: 'servers', mode: 'new' };
      if (a === 'import') return { screen: 'servers', mode: 'import' };
      if (a && b === 'edit') return { screen: 'servers', serverId: a, mode: 'edit' };
      return a ? { screen: 'servers', serverId: a } : { screen: 'servers' };
  }
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export function href(...parts: string[]): string {
  return '#/' + parts.map(encodeURIComponent).join('/');
}

export function navigate(...parts: string[]): void {
  window.location.hash = href(...parts);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}
