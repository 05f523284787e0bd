/**
 * A hub with the inspector configured the way a test needs (an `inspector` config section, a
 * secret store, a reused data dir for restarts), plus helpers for the inspector API and its live
 * stream. A CaptureHub is a TestHub (test/helpers/test-hub.ts): the usual clients work on it.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CaptureEvent, Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { onCleanup } from '../helpers/cleanup.js';
import { apiCall, type ApiAnswer } from '../helpers/hub-api.js';
import type { RemoteServerEntry, ServerEntry } from '../helpers/server-entries.js';
import { SseReader } from '../helpers/sse.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';

export interface CaptureHubOptions {
  servers: Record<string, ServerEntry | RemoteServerEntry>;
  inspector?: Record<string, unknown>;
  secrets?: Record<string, string>;
  tickMs?: number;
  /** Reuse a data dir (a restart); the caller removes it. */
  dataDir?: string;
  capture?: boolean;
}

export interface CaptureHub extends TestHub {
  /** Calls the API; throws on `{ ok: false }`. */
  call<T = unknown>(name: string, input?: unknown): Promise<T>;
  /** Calls the API and returns the raw `{ ok, ... }` body. */
  callRaw(name: string, input?: unknown): Promise<ApiAnswer>;
  sessions(): Promise<InspectorSession[]>;
  exchanges(session: string, full?: boolean): Promise<Exchange[]>;
  events(session?: string): Promise<CaptureEvent[]>;
  /** Waits until the inspector processed everything queued (its queue is drained on setImmediate). */
  settle(): Promise<void>;
}

/** Every file below `dir` (the data dir's history, logs, …: what a secrets grep must read). */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

/** A data dir that outlives one engine (for restarts), removed after the test. */
export function tempDataDir(): Promise<string> {
  return tempDir('patchbay-inspector-test-');
}

export async function startCaptureHub(options: CaptureHubOptions): Promise<CaptureHub> {
  const hub = await startHub({
    servers: options.servers,
    dataDir: options.dataDir ?? (await tempDataDir()),
    ...(options.inspector ? { config: { inspector: options.inspector } } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
    ...(options.capture !== undefined ? { engine: { capture: options.capture } } : {}),
  });
  const callRaw = (name: string, input: unknown = {}): Promise<ApiAnswer> => apiCall(hub, name, input);
  const call = async <T>(name: string, input: unknown = {}): Promise<T> => {
    const body = await callRaw(name, input);
    if (!body.ok) throw new Error(`${name} failed: ${body.code}: ${body.message}`);
    return body.value as T;
  };
  const settle = async (): Promise<void> => {
    await waitFor(() => hub.engine.inspector.queue.length === 0, 'the inspector queue to drain');
  };
  return {
    ...hub,
    call,
    callRaw,
    settle,
    sessions: async () => (await call<{ sessions: InspectorSession[] }>('inspector.sessions.list', { limit: 1000 })).sessions,
    exchanges: async (session, full = false) => {
      const out: Exchange[] = [];
      for (let after: number | undefined; ; ) {
        const page = await call<{ exchanges: Exchange[]; next?: number }>('inspector.exchanges.list', { session, full, limit: 1000, ...(after !== undefined ? { after } : {}) });
        out.push(...page.exchanges);
        if (page.next === undefined) return out;
        after = page.next;
      }
    },
    events: async (session) => {
      const out: CaptureEvent[] = [];
      for (let after: number | undefined; ; ) {
        const page = await call<{ events: CaptureEvent[]; next?: number }>('inspector.events.list', { limit: 5000, ...(session ? { session } : {}), ...(after !== undefined ? { after } : {}) });
        out.push(...page.events);
        if (page.next === undefined) return out;
        after = page.next;
      }
    },
  };
}

/** Opens the live stream; `query` is its query string without `?`. */
export async function openLive(hub: CaptureHub, query = '', headers: Record<string, string> = {}): Promise<{ reader: SseReader; close(): void; res: Response }> {
  const controller = new AbortController();
  const res = await fetch(`${hub.url}/api/inspector/live${query ? `?${query}` : ''}`, { headers: { ...hub.authHeader(), ...headers }, signal: controller.signal });
  const reader = new SseReader(res.body!);
  const close = (): void => {
    controller.abort();
    void reader.cancel();
  };
  onCleanup(close);
  return { reader, close, res };
}

/** Reads capture events until `until` says stop; returns them with the ready payload. */
export async function readLive(reader: SseReader, until: (events: CaptureEvent[]) => boolean, timeoutMs = 15_000): Promise<{ ready: { cursor: number; complete: boolean } | undefined; events: CaptureEvent[]; ids: number[] }> {
  const deadline = Date.now() + timeoutMs;
  const events: CaptureEvent[] = [];
  const ids: number[] = [];
  let ready: { cursor: number; complete: boolean } | undefined;
  while (!until(events)) {
    const item = await reader.nextEvent(Math.max(1, deadline - Date.now()));
    if (!item) throw new Error('the live stream ended');
    if (item.event === 'ready') ready = JSON.parse(item.data) as { cursor: number; complete: boolean };
    if (item.event === 'capture') {
      events.push(JSON.parse(item.data) as CaptureEvent);
      ids.push(Number(item.id));
    }
  }
  return { ready, events, ids };
}
