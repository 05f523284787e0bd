/** Keys (secrets): names, where each is used, and the ones servers need but nobody stored. */
import { createStore } from 'zustand/vanilla';
import type { SecretsList } from '../../shared/api/secrets-contract.js';

export interface SecretsState {
  list: SecretsList;
  loaded: boolean;
  loadError: string | undefined;
  /** Set by `secrets.changed`: the list is stale and is being refetched. */
  stale: boolean;

  secretsLoaded(list: SecretsList): void;
  secretsFailed(message: string): void;
  secretsChanged(names: string[]): void;
}

export type SecretsStore = ReturnType<typeof createSecretsStore>;

export function createSecretsStore() {
  return createStore<SecretsState>()((set) => ({
    list: { secrets: [], missing: [] },
    loaded: false,
    loadError: undefined,
    stale: false,
    secretsLoaded: (list) => set({ list, loaded: true, loadError: undefined, stale: false }),
    secretsFailed: (message) => set({ loadError: message, loaded: true }),
    secretsChanged: () => set({ stale: true }),
  }));
}
