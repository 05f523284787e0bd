/**
 * The command palette (Ctrl/Cmd-K): jump to any screen, server, profile, playground, tool or
 * session by typing part of its name. Ariakit's Dialog and Combobox give the focus handling and
 * the listbox semantics; the items come from the stores (tools from opened playgrounds and
 * connection tests, sessions from the inspector's list, profiles from the API when it opens).
 */
import { Combobox, ComboboxItem, ComboboxList, ComboboxProvider, Dialog, DialogHeading } from '@ariakit/react';
import { useEffect, useMemo, useState } from 'react';
import { Icon, type IconName } from '../components/icons.js';
import { usePaletteCatalog } from './palette-catalog.js';
import { href } from './router.js';
import { loadSessions } from './sessions-commands.js';
import { usePlayground, useServers, useServices, useSessions } from './services.js';

interface PaletteItem {
  id: string;
  label: string;
  hint: string;
  icon: IconName;
  href: string;
  /** A catalog entry: the registry it was found in (the detail pane reads it from there). */
  catalog?: { name: string; registry: string };
}

const SCREENS: PaletteItem[] = [
  { id: 's:servers', label: 'Servers', hint: 'screen', icon: 'servers', href: href('servers') },
  { id: 's:profiles', label: 'Profiles', hint: 'screen', icon: 'profiles', href: href('profiles') },
  { id: 's:sessions', label: 'Sessions', hint: 'screen', icon: 'sessions', href: href('sessions') },
  { id: 's:clients', label: 'Clients', hint: 'screen', icon: 'clients', href: href('clients') },
  { id: 's:audit', label: 'Audit trail', hint: 'screen', icon: 'audit', href: href('audit') },
  { id: 's:keys', label: 'Keys & logins', hint: 'screen', icon: 'keys', href: href('keys') },
  { id: 's:settings', label: 'Settings', hint: 'screen', icon: 'settings', href: href('settings') },
];

function usePaletteItems(profiles: readonly string[]): PaletteItem[] {
  const order = useServers((s) => s.order);
  const tests = useServers((s) => s.tests);
  const playgrounds = usePlayground((s) => s.byServer);
  const sessions = useSessions((s) => s.sessions);
  return useMemo(() => {
    const items = [...SCREENS];
    for (const id of order) {
      items.push({ id: `server:${id}`, label: id, hint: 'server', icon: 'servers', href: href('servers', id) });
      items.push({ id: `pg:${id}`, label: `${id} playground`, hint: 'call its tools', icon: 'play', href: href('servers', id, 'playground') });
      const tools = new Set<string>();
      for (const t of playgrounds[id]?.catalog.tools ?? []) tools.add(t.name);
      const test = tests[id];
      if (test?.state === 'done' && test.result.ok) for (const t of test.result.tools) tools.add(t.name);
      for (const name of tools) items.push({ id: `tool:${id}:${name}`, label: name, hint: `tool of ${id}`, icon: 'bolt', href: href('servers', id, 'playground', `tool:${name}`) });
    }
    for (const name of profiles) {
      items.push({ id: `profile:${name}`, label: `@${name}`, hint: 'profile', icon: 'profiles', href: href('profiles', name) });
      items.push({ id: `ppg:${name}`, label: `@${name} playground`, hint: 'call its tools', icon: 'play', href: href('profiles', name, 'playground') });
      // A profile's playground is keyed by its session target, `@name`; its tools are the prefixed names.
      for (const t of playgrounds[`@${name}`]?.catalog.tools ?? []) {
        items.push({ id: `ptool:${name}:${t.name}`, label: t.name, hint: `tool of @${name}`, icon: 'bolt', href: href('profiles', name, 'playground', `tool:${t.name}`) });
      }
    }
    for (const s of sessions.slice(0, 100)) {
      const who = s.client?.name ?? 'unknown client';
      items.push({ id: `session:${s.id}`, label: `${who} → ${s.server}`, hint: `session ${s.id.slice(0, 8)} · ${s.state}`, icon: 'sessions', href: href('sessions', s.id) });
    }
    return items;
  }, [order, tests, playgrounds, sessions, profiles]);
}

export function Palette({ open, onClose }: { open: boolean; onClose(): void }) {
  const services = useServices();
  const [query, setQuery] = useState('');
  const [profiles, setProfiles] = useState<string[]>([]);
  // Sessions are listed only on their screen: the palette asks for the current list when it opens.
  useEffect(() => {
    if (!open) return;
    void loadSessions(services);
    void services.bridge.call('profiles.list', {}).then((r) => {
      if (r.ok) setProfiles(r.value.map((p) => p.name));
    });
  }, [open, services]);
  const items = usePaletteItems(profiles);
  const catalog = usePaletteCatalog(services, open, query);
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    const found = q === '' ? items : items.filter((i) => `${i.label} ${i.hint}`.toLowerCase().includes(q));
    // Names that start with what was typed first.
    const places = found.sort((a, b) => Number(!a.label.toLowerCase().startsWith(q)) - Number(!b.label.toLowerCase().startsWith(q))).slice(0, 60);
    const entries: PaletteItem[] = catalog.map((r) => ({ id: `catalog:${r.registry}:${r.name}`, label: `Catalog: ${r.title ?? r.name}`, hint: r.description, icon: 'plus', href: href('servers', 'catalog', r.name), catalog: { name: r.name, registry: r.registry } }));
    return [...places, ...entries];
  }, [items, query, catalog]);
  const go = (item: PaletteItem): void => {
    onClose();
    if (item.catalog) services.stores.catalog.getState().resultChosen(item.catalog.name, item.catalog.registry);
    window.location.hash = item.href;
  };
  return (
    <Dialog open={open} onClose={onClose} className="palette" backdrop={<div className="drawer-backdrop" />} unmountOnHide data-testid="palette">
      <DialogHeading className="visually-hidden">Jump to</DialogHeading>
      <ComboboxProvider setValue={setQuery} defaultOpen>
        <div className="palette-field">
          <Icon name="search" />
          <Combobox autoSelect className="palette-input" placeholder="Jump to a server, tool or session…" aria-label="Jump to a server, tool or session" data-testid="palette-input" />
          <kbd>Esc</kbd>
        </div>
        <ComboboxList className="palette-list" alwaysVisible aria-label="Places">
          {matches.length === 0 && <p className="palette-empty muted">Nothing called “{query}”.</p>}
          {matches.map((item) => (
            <ComboboxItem key={item.id} className="palette-item" value={item.label} onClick={() => go(item)} data-testid="palette-item">
              <Icon name={item.icon} />
              <span className="palette-label">{item.label}</span>
              <span className="palette-hint">{item.hint}</span>
            </ComboboxItem>
          ))}
        </ComboboxList>
      </ComboboxProvider>
    </Dialog>
  );
}
