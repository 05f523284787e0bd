/**
 * Hash routes (`#/servers`, `#/sessions/<id>`): they work the same from `/ui/` on the hub and from
 * a file in the Electron window, and need no server-side fallback.
 */
import { useSyncExternalStore } from 'react';

export type Route =
  /**
   * `playground`: the server's playground; `item` opens one tool (`tool:<name>`), prompt (`prompt:<name>`) or resource (`resource:<uri>`).
   * `catalog`: Add from catalog (`#/servers/catalog`); `item` is the registry name shown in its detail pane.
   */
  | { screen: 'servers'; serverId?: string; mode?: 'new' | 'edit' | 'import' | 'playground' | 'catalog'; item?: string }
  /** `playground`: the profile's playground (its aggregated endpoint, `@name`); `item` as for a server's. */
  | { screen: 'profiles'; name?: string; mode?: 'playground'; item?: string }
  | { screen: 'keys' }
  | { screen: 'sessions'; sessionId?: string }
  /** `exportClient`: open that client's export at once (`#/clients/<id>/export`, the tray's "Export to Claude Desktop…"). */
  | { screen: 'clients'; exportClient?: string }
  | { screen: 'settings' }
  /** The audit trail (docs/audit.md). */
  | { screen: 'audit' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(safeDecode);
  const [screen, a, b] = parts;
  switch (screen) {
    case 'keys':
      return { screen: 'keys' };
    case 'profiles':
      if (a && b === 'playground') return parts[3] ? { screen: 'profiles', name: a, mode: 'playground', item: parts[3] } : { screen: 'profiles', name: a, mode: 'playground' };
      return a ? { screen: 'profiles', name: a } : { screen: 'profiles' };
    case 'sessions':
      return a ? { screen: 'sessions', sessionId: a } : { screen: 'sessions' };
    case 'clients':
      return a && b === 'export' ? { screen: 'clients', exportClient: a } : { screen: 'clients' };
    case 'settings':
      return { screen: 'settings' };
    case 'audit':
      return { screen: 'audit' };
    case 'servers':
    default:
      if (a === 'new') return { screen: 'servers', mode: 'new' };
      if (a === 'import') return { screen: 'servers', mode: 'import' };
      if (a === 'catalog') return b ? { screen: 'servers', mode: 'catalog', item: b } : { screen: 'servers', mode: 'catalog' };
      if (a && b === 'edit') return { screen: 'servers', serverId: a, mode: 'edit' };
      if (a && b === 'playground') return parts[3] ? { screen: 'servers', serverId: a, mode: 'playground', item: parts[3] } : { screen: 'servers', serverId: a, mode: 'playground' };
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
