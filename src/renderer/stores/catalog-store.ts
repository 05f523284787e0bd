/**
 * The catalog as the UI knows it: the registries and how fresh their copies are, the last search
 * (kept, so going from a result's detail back to the list keeps the place), and the installed
 * servers the registries have newer versions of (the Servers screen's "update available" chips).
 */
import { createStore } from 'zustand/vanilla';
import type { CatalogOutdated, CatalogRegistry, CatalogResult } from '../../shared/api/catalog-contract.js';

export type OutdatedServer = CatalogOutdated['servers'][number];

export interface CatalogState {
  registries: CatalogRegistry[] | undefined;
  query: string;
  results: CatalogResult[];
  total: number;
  /** The query whose results are shown (the box may be ahead of it while a search runs). */
  searched: string | undefined;
  searching: boolean;
  /** Why the last search (or refresh) failed, as the engine worded it. */
  error: string | undefined;
  refreshing: boolean;
  /** The registry of the result chosen last (a name may be in more than one registry). */
  chosenRegistry: Record<string, string>;
  /** Outdated servers by server id; undefined until first asked. */
  outdated: Record<string, OutdatedServer> | undefined;

  queryTyped(query: string): void;
  searchStarted(): void;
  searchFinished(query: string, value: { results: CatalogResult[]; total: number; registries: CatalogRegistry[] }): void;
  searchFailed(message: string): void;
  refreshStarted(): void;
  registriesLoaded(registries: CatalogRegistry[]): void;
  refreshFailed(message: string): void;
  resultChosen(name: string, registry: string): void;
  outdatedLoaded(servers: OutdatedServer[]): void;
}

export function createCatalogStore() {
  return createStore<CatalogState>()((set) => ({
    registries: undefined,
    query: '',
    results: [],
    total: 0,
    searched: undefined,
    searching: false,
    error: undefined,
    refreshing: false,
    chosenRegistry: {},
    outdated: undefined,

    queryTyped: (query) => set({ query }),
    searchStarted: () => set({ searching: true }),
    searchFinished: (query, value) => set({ searched: query, results: value.results, total: value.total, registries: value.registries, searching: false, error: undefined }),
    searchFailed: (message) => set({ searching: false, error: message }),
    refreshStarted: () => set({ refreshing: true }),
    registriesLoaded: (registries) => set({ registries, refreshing: false }),
    refreshFailed: (message) => set({ refreshing: false, error: message }),
    resultChosen: (name, registry) => set((s) => ({ chosenRegistry: { ...s.chosenRegistry, [name]: registry } })),
    outdatedLoaded: (servers) => set({ outdated: Object.fromEntries(servers.map((s) => [s.serverId, s])) }),
  }));
}
