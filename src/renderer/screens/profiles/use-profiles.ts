/**
 * The Profiles screen's data, straight from the API: the list of profiles and one profile in full.
 * Both reload when the engine says a profile or the config changed (`profiles.changed`,
 * `config.changed`), so a toggle made elsewhere (the CLI, another window) shows up here.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ProfileSummary, ProfileView } from '../../../shared/api/profiles-contract.js';
import { useServices } from '../../app/services.js';

export function useProfileList(): { list: ProfileSummary[] | undefined; error: string | undefined; reload(): Promise<void> } {
  const { bridge } = useServices();
  const [list, setList] = useState<ProfileSummary[]>();
  const [error, setError] = useState<string>();
  const reload = useCallback(async () => {
    const r = await bridge.call('profiles.list', {});
    if (r.ok) {
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

export function useProfileView(name: string): { view: ProfileView | undefined; error: string | undefined; loading: boolean; reload(refresh?: boolean): Promise<void> } {
  const { bridge } = useServices();
  const [view, setView] = useState<ProfileView>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const reload = useCallback(
    async (refresh = false) => {
      setLoading(true);
      const r = await bridge.call('profiles.show', { name, refresh });
      setLoading(false);
      if (r.ok) {
        setView(r.value);
        setError(undefined);
      } else setError(r.message);
    },
    [bridge, name],
  );
  useEffect(() => {
    setView(undefined);
    void reload();
    return bridge.subscribe((e) => {
      if ((e.channel === 'profiles.changed' && (e.payload as { name?: string }).name === name) || e.channel === 'config.changed') void reload();
    });
  }, [bridge, name, reload]);
  return { view, error, loading, reload };
}
