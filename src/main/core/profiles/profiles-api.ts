/**
 * Engine side of the profiles contract: profile entries edited through the config store (the
 * running profiles follow through the engine's config listener, so connected clients get list
 * changes), the full view with token costs, and approvals of changed tools. `profiles.changed`
 * tells the UI when a profile's config or pins moved.
 */
import { profilesContract, type ProfileSummary } from '../../../shared/api/profiles-contract.js';
import type { PatchbayConfig } from '../../../shared/config-schema.js';
import { ApiError, withApiErrors, type ApiRegistry, type Handlers } from '../api/api-registry.js';
import { ConfigError, type ConfigStore } from '../config/config-store.js';
import { addServer, createProfile, removeProfile, removeServer, setItem, updateProfile } from './profile-edits.js';
import { profileSummary, profileView } from './profile-inventory.js';
import { profileId } from './profile-port.js';
import type { ProfileRegistry } from './profile-registry.js';
import { loadTokenCounter, TokenMeter } from './token-cost.js';
import type { ToolPins } from './tool-pins.js';

export interface ProfilesDeps {
  config: ConfigStore;
  profiles: ProfileRegistry;
  pins: ToolPins | undefined;
  /** The hub's base URL, e.g. http://127.0.0.1:39517. */
  baseUrl: string;
  sessionCounts(): Map<string, number>;
  version: string;
}

export function profilesHandlers(deps: ProfilesDeps, api: ApiRegistry): Handlers<typeof profilesContract> {
  const { config, profiles, pins } = deps;
  let meter: Promise<TokenMeter> | undefined;
  const emit = (name: string): void => api.emit(profilesContract, 'profiles.changed', { name });
  pins?.onChange(emit);
  config.on('change', () => {
    for (const name of profiles.names()) emit(name);
  });

  const port = (name: string) => {
    const found = profiles.get(name);
    if (!found) throw new ApiError('profile_not_found', `There is no profile '${name}' (patchbay profiles list shows them).`);
    return found;
  };
  const summary = (name: string): ProfileSummary => profileSummary(port(name).profile, deps.baseUrl, deps.sessionCounts().get(profileId(name)) ?? 0, pins);
  const update = async (mutate: (draft: PatchbayConfig) => void): Promise<void> => {
    await withApiErrors(ConfigError, () =>
      config.update((draft) => {
        mutate(draft);
      }),
    );
  };
  // The store has emitted 'change' (and the engine applied it) by the time update resolves.
  const edited = async (name: string, mutate: (draft: PatchbayConfig) => void): Promise<ProfileSummary> => {
    await update(mutate);
    return summary(name);
  };

  return {
    'profiles.list': () => profiles.names().map(summary),
    'profiles.show': ({ name, refresh }) =>
      profileView(port(name), summary(name), refresh === true, {
        catalog: profiles.catalog,
        pins,
        meter: () => (meter ??= loadTokenCounter().then((count) => new TokenMeter(count))),
        version: deps.version,
        probeTimeoutMs: 60_000,
      }),
    'profiles.create': ({ name, servers, ...options }) => edited(name, (draft) => createProfile(draft, name, servers, options)),
    'profiles.remove': async ({ name }) => {
      let removed = false;
      if (config.get().profiles?.[name]) await update((draft) => void (removed = removeProfile(draft, name)));
      return { removed };
    },
    'profiles.update': ({ name, ...options }) => edited(name, (draft) => updateProfile(draft, name, options)),
    'profiles.addServer': ({ name, server }) => edited(name, (draft) => addServer(draft, name, server)),
    'profiles.removeServer': ({ name, server }) => edited(name, (draft) => removeServer(draft, name, server)),
    'profiles.setItem': ({ name, server, kind, item, enabled }) => edited(name, (draft) => setItem(draft, name, server, kind, item, enabled)),
    'profiles.approve': ({ name, server, tool }) => {
      port(name);
      if (!pins) throw new ApiError('pins_unavailable', 'Tool pinning is not running in this engine.');
      const approved = pins.approve(name, server, tool);
      if (approved.length === 0) {
        const what = tool ? `tool '${tool}'${server ? ` of '${server}'` : ''}` : server ? `tools of '${server}'` : 'tools';
        throw new ApiError('nothing_to_approve', `No changed ${what} to approve in profile '${name}'.`);
      }
      return { approved };
    },
  };
}
