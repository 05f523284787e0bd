/**
 * A hub with the inspector configured the way a test needs (an `inspector` config section, a
 * secret store, a reused data dir for restarts), plus helpers for the inspector API and its live
 * stream. Built on test/helpers/hub-harness.ts: its clients and cleanup work unchanged.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CaptureEvent, Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { startEngine } from '../../src/main/core/engine/engine.js';
import { onCleanup, SseReader, waitFor, type ServerEntry, type TestHub } from '../helpers/hub-harness.js';

/** A remote server entry (Streamable HTTP or legacy HTTP+SSE), as the config takes it. */
export interface RemoteServerEntry {
  url: string;
  type?: 'http' | 'sse' | 'streamable-http';
  transport?: 'auto' | 'streamable-http' | 'http' | 'sse';
  headers?: Record<string, string>;
  requestTimeoutMs?: number;
  oauth?: false;
}

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
  callRaw(name: string, input?: unknown): Promise<{ ok: boolean; value?: unknown; code?: string; message?: string }>;
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

export async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-inspector-test-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export async function startCaptureHub(options: CaptureHubOptions): Promise<CaptureHub> {
  process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
  const dataDir = options.dataDir ?? (await tempDataDir());
  const config: Record<string, unknown> = { mcpServers: options.servers };
  if (options.inspector) config.inspector = options.inspector;
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config, null, 2));
  if (options.secrets) {
    await writeFile(path.join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, secrets: options.secrets }), { mode: 0o600 });
  }
  const engine = await startEngine({
    dataDir,
    port: 0,
    ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
    ...(options.capture !== undefined ? { capture: options.capture } : {}),
  });
  onCleanup(() => engine.close());
  const token = readFileSync(engine.tokenFile, 'utf8').trim();
  const authHeader = (): Record<string, string> => ({ Authorization: `Bearer ${token}` });
  const callRaw = async (name: string, input: unknown = {}) => {
    const res = await fetch(`${engine.url}/api/call/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...authHeader() }, body: JSON.stringify(input) });
    return (await res.json()) as { ok: boolean; value?: unknown; code?: string; message?: string };
  };
  const call = async <T>(name: string, input: unknown = {}): Promise<T> => {
    const body = await callRaw(name, input);
    if (!body.ok) throw new Error(`${name} failed: ${body.code}: ${body.message}`);
    return body.value as T;
  };
  const settle = async (): Promise<void> => {
    await waitFor(() => engine.inspector.queue.length === 0, 'the inspector queue to drain');
  };
  return {
    engine,
    url: engine.url,
    port: engine.port,
    token,
    dataDir,
    mcpUrl: (id) => `${engine.url}/mcp/${encodeURIComponent(id)}`,
    authHeader,
    close: () => engine.close(),
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
