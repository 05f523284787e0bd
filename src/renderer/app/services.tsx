/**
 * The app's services, created once at startup and handed down by context: the bridge and one
 * store per domain. Components read stores through selector hooks so they re-render only for
 * the slice they show.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Bridge } from '../bridge/bridge.js';
import { createSecretsStore, type SecretsState } from '../stores/secrets-store.js';
import { createServersStore, type ServersState } from '../stores/servers-store.js';
import { createAppStateStore, type AppState } from '../stores/settings-store.js';
import { createNoticesStore, type NoticesState } from '../stores/notices-store.js';
import { createSessionsStore, type SessionsState } from '../stores/sessions-store.js';
import { createPlaygroundStore, type PlaygroundState } from '../stores/playground-store.js';
import { createCatalogStore, type CatalogState } from '../stores/catalog-store.js';

export interface Stores {
  servers: ReturnType<typeof createServersStore>;
  secrets: ReturnType<typeof createSecretsStore>;
  app: ReturnType<typeof createAppStateStore>;
  notices: ReturnType<typeof createNoticesStore>;
  sessions: ReturnType<typeof createSessionsStore>;
  playground: ReturnType<typeof createPlaygroundStore>;
  catalog: ReturnType<typeof createCatalogStore>;
}

export interface Services {
  bridge: Bridge;
  stores: Stores;
}

export function createStores(): Stores {
  return {
    servers: createServersStore(),
    secrets: createSecretsStore(),
    app: createAppStateStore(),
    notices: createNoticesStore(),
    sessions: createSessionsStore(),
    playground: createPlaygroundStore(),
    catalog: createCatalogStore(),
  };
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}

export function useServers<T>(selector: (s: ServersState) => T): T {
  return useStore(useServices().stores.servers, selector);
}

export function useSecrets<T>(selector: (s: SecretsState) => T): T {
  return useStore(useServices().stores.secrets, selector);
}

export function useAppState<T>(selector: (s: AppState) => T): T {
  return useStore(useServices().stores.app, selector);
}

export function useNotices<T>(selector: (s: NoticesState) => T): T {
  return useStore(useServices().stores.notices, selector);
}

export function useSessions<T>(selector: (s: SessionsState) => T): T {
  return useStore(useServices().stores.sessions, selector);
}

export function usePlayground<T>(selector: (s: PlaygroundState) => T): T {
  return useStore(useServices().stores.playground, selector);
}

export function useCatalog<T>(selector: (s: CatalogState) => T): T {
  return useStore(useServices().stores.catalog, selector);
}
