/**
 * The playground (one session per server the person opened it on): what the server offers, the
 * calls made and running (with live progress), the requests the server made that wait for an
 * answer, and its notifications. Actions are named as the events that cause them.
 */
import { createStore } from 'zustand/vanilla';
import type { PlaygroundOpened, PlaygroundOutcome, PlaygroundServerMessage } from '../../shared/api/playground-contract.js';
import { loadHistory, saveHistory, withEntry, type History, type HistoryEntry } from './playground-history.js';

export interface ToolDef {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** Kept as listed: MCP Apps' `_meta.ui` (app-ui.ts) is read from it. */
  _meta?: Record<string, unknown>;
}
export interface ResourceDef {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
export interface TemplateDef {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
export interface PromptDef {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface Catalog {
  tools?: ToolDef[];
  resources?: ResourceDef[];
  templates?: TemplateDef[];
  prompts?: PromptDef[];
  errors: Partial<Record<'tools' | 'resources' | 'templates' | 'prompts', string>>;
}

export interface CallState {
  /** The JSON-RPC id the UI chose for it. */
  id: string;
  method: string;
  target?: string | undefined;
  startedAt: number;
  status: 'running' | PlaygroundOutcome['status'];
  progress?: { progress: number; total?: number | undefined; message?: string | undefined } | undefined;
  outcome?: PlaygroundOutcome | undefined;
}

export interface LogEntry {
  n: number;
  time: number;
  method: string;
  params?: Record<string, unknown> | undefined;
  relatedRequestId?: string | number | undefined;
}

export interface ServerPlayground {
  state: 'opening' | 'open' | 'failed' | 'closed';
  error?: string | undefined;
  opened?: PlaygroundOpened | undefined;
  catalog: Catalog;
  calls: Record<string, CallState>;
  /** Requests the server made that wait for the person's answer, oldest first. */
  asks: PlaygroundServerMessage[];
  /**
   * The request the person chose to answer from the inbox (one no call of theirs caused: it waits
   * there, not in a dialog, until they pick it).
   */
  answering?: string | number | undefined;
  /** A call from the history to load into the tool's form (and run, for a re-run); its panel takes it once. */
  loaded?: { tool: string; args: Record<string, unknown>; run: boolean } | undefined;
  log: LogEntry[];
  subscriptions: string[];
}

export interface PlaygroundState {
  byServer: Record<string, ServerPlayground>;
  /** Tool calls made from the playground, per target, persisted (playground-history.ts). */
  history: History;
  historyRecorded(server: string, entry: HistoryEntry): void;
  historyCleared(server: string): void;
  historyLoaded(server: string, tool: string, args: Record<string, unknown>, run: boolean): void;
  historyLoadTaken(server: string): void;
  playgroundOpening(server: string): void;
  playgroundOpened(server: string, opened: PlaygroundOpened): void;
  playgroundFailed(server: string, message: string): void;
  playgroundClosed(session: string, reason: string): void;
  catalogLoaded(server: string, part: Partial<Catalog>): void;
  callStarted(server: string, call: CallState): void;
  callFinished(server: string, id: string, outcome: PlaygroundOutcome): void;
  serverMessageReceived(message: PlaygroundServerMessage): void;
  askAnswered(server: string, id: string | number): void;
  askOpened(server: string, id: string | number | undefined): void;
  subscriptionChanged(server: string, uri: string, subscribed: boolean): void;
}

const MAX_LOG = 200;
const MAX_CALLS = 50;
let logN = 0;

const empty = (): ServerPlayground => ({ state: 'opening', catalog: { errors: {} }, calls: {}, asks: [], log: [], subscriptions: [] });

export function createPlaygroundStore() {
  return createStore<PlaygroundState>()((set) => {
    const update = (server: string, fn: (p: ServerPlayground) => Partial<ServerPlayground>): void =>
      set((s) => {
        const current = s.byServer[server];
        if (!current) return s;
        return { byServer: { ...s.byServer, [server]: { ...current, ...fn(current) } } };
      });
    const bySession = (session: string, byServer: Record<string, ServerPlayground>): string | undefined =>
      Object.keys(byServer).find((id) => byServer[id]?.opened?.session === session);

    const keep = (history: History): { history: History } => {
      saveHistory(history);
      return { history };
    };
    return {
      byServer: {},
      history: loadHistory(),
      historyRecorded: (server, entry) => set((s) => keep(withEntry(s.history, server, entry))),
      historyCleared: (server) =>
        set((s) => {
          const { [server]: _gone, ...rest } = s.history;
          return keep(rest);
        }),
      historyLoaded: (server, tool, args, run) => update(server, () => ({ loaded: { tool, args, run } })),
      historyLoadTaken: (server) => update(server, () => ({ loaded: undefined })),
      playgroundOpening: (server) => set((s) => ({ byServer: { ...s.byServer, [server]: empty() } })),
      playgroundOpened: (server, opened) => update(server, () => ({ state: 'open', opened, error: undefined })),
      playgroundFailed: (server, message) => update(server, () => ({ state: 'failed', error: message })),
      playgroundClosed: (session, reason) =>
        set((s) => {
          const server = bySession(session, s.byServer);
          if (!server) return s;
          return { byServer: { ...s.byServer, [server]: { ...s.byServer[server]!, state: 'closed', error: reason, asks: [], answering: undefined } } };
        }),
      catalogLoaded: (server, part) => update(server, (p) => ({ catalog: { ...p.catalog, ...part, errors: { ...p.catalog.errors, ...part.errors } } })),
      callStarted: (server, call) =>
        update(server, (p) => {
          const calls = { ...p.calls, [call.id]: call };
          const ids = Object.keys(calls);
          // Finished calls beyond the last few are forgotten.
          for (const id of ids.slice(0, Math.max(0, ids.length - MAX_CALLS))) if (calls[id]!.status !== 'running') delete calls[id];
          return { calls };
        }),
      callFinished: (server, id, outcome) =>
        update(server, (p) => {
          const call = p.calls[id];
          if (!call) return {};
          return { calls: { ...p.calls, [id]: { ...call, status: outcome.status, outcome } }, asks: p.asks.filter((a) => a.relatedRequestId !== id) };
        }),
      serverMessageReceived: (message) =>
        set((s) => {
          const server = bySession(message.session, s.byServer);
          if (!server) return s;
          const p = s.byServer[server]!;
          const m = message.message;
          let next: Partial<ServerPlayground>;
          if (message.kind === 'request') next = { asks: [...p.asks, message] };
          else if (m.method === 'notifications/progress' && message.relatedRequestId !== undefined && p.calls[String(message.relatedRequestId)]) {
            const id = String(message.relatedRequestId);
            const params = m.params ?? {};
            const progress = { progress: Number(params.progress ?? 0), total: typeof params.total === 'number' ? params.total : undefined, message: typeof params.message === 'string' ? params.message : undefined };
            next = { calls: { ...p.calls, [id]: { ...p.calls[id]!, progress } } };
          } else next = {};
          const entry: LogEntry = { n: ++logN, time: Date.now(), method: m.method, params: m.params, relatedRequestId: message.relatedRequestId };
          next.log = [...p.log, entry].slice(-MAX_LOG);
          return { byServer: { ...s.byServer, [server]: { ...p, ...next } } };
        }),
      askAnswered: (server, id) => update(server, (p) => ({ asks: p.asks.filter((a) => a.message.id !== id), answering: p.answering === id ? undefined : p.answering })),
      askOpened: (server, id) => update(server, () => ({ answering: id })),
      subscriptionChanged: (server, uri, subscribed) => update(server, (p) => ({ subscriptions: subscribed ? [...new Set([...p.subscriptions, uri])] : p.subscriptions.filter((u) => u !== uri) })),
    };
  });
}

export type PlaygroundStore = ReturnType<typeof createPlaygroundStore>;
