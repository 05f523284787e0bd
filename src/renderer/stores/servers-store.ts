/**
 * Servers as the UI shows them: config entries with live status, and the last connection test of
 * each. One store for the domain; its actions are named after the events that cause them.
 */
import { createStore } from 'zustand/vanilla';
import type { ServerStats } from '../../shared/api/inspector-contract.js';
import type { ServerDetail, ServerStatus, ServerTestResult } from '../../shared/api/servers-contract.js';

export type TestState = { state: 'running' } | { state: 'done'; result: ServerTestResult; at: number };

export interface ServersState {
  /** By id, in config order (`order`). */
  byId: Record<string, ServerDetail>;
  order: string[];
  loaded: boolean;
  /** Why the list could not be loaded, shown above it. */
  loadError: string | undefined;
  tests: Record<string, TestState>;
  /** Calls, errors and latency per server since the engine started (the inspector's stats). */
  stats: Record<string, ServerStats>;

  overviewLoaded(servers: ServerDetail[]): void;
  overviewFailed(message: string): void;
  serverStatusReceived(status: ServerStatus): void;
  serverSaved(server: ServerDetail, previousId?: string): void;
  serverRemoved(id: string): void;
  testStarted(id: string): void;
  testFinished(id: string, result: ServerTestResult, at?: number): void;
  statsLoaded(stats: ServerStats[]): void;
}

export type ServersStore = ReturnType<typeof createServersStore>;

export function createServersStore() {
  return createStore<ServersState>()((set) => ({
    byId: {},
    order: [],
    loaded: false,
    loadError: undefined,
    tests: {},
    stats: {},

    overviewLoaded: (servers) =>
      set((s) => {
        const byId: Record<string, ServerDetail> = {};
        // A snapshot may have been taken before an event that already arrived: each server keeps its newer status.
        for (const server of servers) byId[server.id] = withNewerStatus(server, s.byId[server.id]?.status);
        // Tests of servers that are gone are dropped with them.
        const tests = Object.fromEntries(Object.entries(s.tests).filter(([id]) => id in byId));
        return { byId, order: servers.map((x) => x.id), loaded: true, loadError: undefined, tests };
      }),

    overviewFailed: (message) => set({ loadError: message, loaded: true }),

    serverStatusReceived: (status) =>
      set((s) => {
        const server = s.byId[status.id];
        // A status for a server we have not loaded yet: the overview refetch that a config change triggers brings it.
        if (!server || newerStatus(status, server.status) !== status) return s;
        return { byId: { ...s.byId, [status.id]: { ...server, status } } };
      }),

    serverSaved: (server, previousId) =>
      set((s) => {
        const byId = { ...s.byId };
        let order = s.order;
        const tests = { ...s.tests };
        if (previousId !== undefined && previousId !== server.id) {
          delete byId[previousId];
          delete tests[previousId];
          order = order.map((id) => (id === previousId ? server.id : id));
        }
        if (!order.includes(server.id)) order = [...order, server.id];
        byId[server.id] = withNewerStatus(server, s.byId[server.id]?.status);
        return { byId, order, tests };
      }),

    serverRemoved: (id) =>
      set((s) => {
        if (!(id in s.byId)) return s;
        const byId = { ...s.byId };
        delete byId[id];
        const tests = { ...s.tests };
        delete tests[id];
        return { byId, order: s.order.filter((x) => x !== id), tests };
      }),

    testStarted: (id) => set((s) => ({ tests: { ...s.tests, [id]: { state: 'running' } } })),

    testFinished: (id, result, at = Date.now()) => set((s) => ({ tests: { ...s.tests, [id]: { state: 'done', result, at } } })),

    statsLoaded: (stats) => set({ stats: Object.fromEntries(stats.map((x) => [x.server, x])) }),
  }));
}

/**
 * Of two statuses of one server, the newer: the engine numbers every status it hands out (`rev`),
 * and a status reaches the UI by two roads — events, and answers (the overview, a saved server)
 * that may have been taken before an event that arrived first. Without a rev (an older engine),
 * the one that arrived last.
 */
export function newerStatus(incoming: ServerStatus, current: ServerStatus | undefined): ServerStatus {
  if (!current || incoming.rev === undefined || current.rev === undefined) return incoming;
  return incoming.rev >= current.rev ? incoming : current;
}

function withNewerStatus(server: ServerDetail, current: ServerStatus | undefined): ServerDetail {
  const status = newerStatus(server.status, current);
  return status === server.status ? server : { ...server, status };
}
