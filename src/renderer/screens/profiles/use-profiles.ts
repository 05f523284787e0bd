/**
 * The Profiles screen's data, straight from the API: the list of profiles and one profile in full.
 * A visit shows what this page last knew at once and reloads it quietly. Both reload when the
 * engine says a profile or the config changed (`profiles.changed`, `config.changed`), so a toggle
 * made elsewhere (the CLI, another window) shows up here.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ProfileSummary, ProfileView } from '../../../shared/api/profiles-contract.js';
import { useServices } from '../../app/services.js';

/** The last list of profiles this page saw, shown at once on the next visit while it reloads. */
let lastList: ProfileSummary[] | undefined;

export function useProfileList(): { list: ProfileSummary[] | undefined; error: string | undefined; reload(): Promise<void> } {
  const { bridge } = useServices();
  const [list, setList] = useState<ProfileSummary[] | undefined>(lastList);
  const [error, setError] = useState<string>();
  const reload = useCallback(async () => {
    const r = await bridge.call('profiles.list', {});
    if (r.ok) {
      lastList = r.value;
      setList(r.value);
      setError(undefined);
    } else setError(r.message);
  }, [bridge]);
  useEffect(() => {
    void reload();
    return bridge.subscribe((e) => {
      if (e.channel === 'profiles.changed' || e.channel === 'config.changed') void reload();
    });
  }, [bridge, reload]);
  return { list, error, reload };
}

/**
 * The last view of each profile this page saw: a visit shows it at once and refreshes it quietly
 * (asking the servers takes seconds when a member has to start), instead of a spinner every time.
 */
const lastViews = new Map<string, ProfileView>();
const MAX_CACHED = 32;

export function useProfileView(name: string): { view: ProfileView | undefined; error: string | undefined; loading: boolean; reload(refresh?: boolean): Promise<void> } {
  const { bridge } = useServices();
  const [view, setView] = useState<ProfileView | undefined>(() => lastViews.get(name));
  const [error, setError] = useState<string>();
  // Only an explicit "ask the servers again" shows as loading; the quiet refresh does not.
  const [loading, setLoading] = useState(false);
  const reload = useCallback(
    async (refresh = false) => {
      if (refresh) setLoading(true);
      const r = await bridge.call('profiles.show', { name, refresh });
      if (refresh) setLoading(false);
      if (r.ok) {
        lastViews.delete(name);
        lastViews.set(name, r.value);
        for (const old of [...lastViews.keys()].slice(0, Math.max(0, lastViews.size - MAX_CACHED))) lastViews.delete(old);
        setView(r.value);
        setError(undefined);
      } else setError(r.message);
    },
    [bridge, name],
  );
  useEffect(() => {
    setView(lastViews.get(name));
    void reload();
    return bridge.subscribe((e) => {
      if ((e.channel === 'profiles.changed' && (e.payload as { name?: string }).name === name) || e.channel === 'config.changed') void reload();
    });
  }, [bridge, name, reload]);
  return { view, error, loading, reload };
}
