/**
 * Test harness for the hub: starts a real engine in-process (port 0, fresh temp data dir) with a
 * given config, and offers raw HTTP helpers (global fetch, plus node:http / node:net where fetch
 * cannot do it), an incremental SSE reader, and a small MCP client that does initialize +
 * notifications/initialized. Everything a test starts is closed after each test (afterEach is
 * registered when this module is imported): engines, temp dirs, child processes, open streams.
 *
 * Waiting is always on events or on a polled condition with a deadline, never on a fixed sleep.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { startEngine, type RunningEngine } from '../../src/main/core/engine/engine.js';
import { setLogLevel } from '../../src/main/core/log/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');
export const EVERYTHING_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'everything-server.mjs');
export const PROBE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'probe-server.mjs');

export const ACCEPT_BOTH = 'application/json, text/event-stream';
export const LATEST = '2025-11-25';
export const SUPPORTED_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

// Keep the engine's own log quiet unless a test asks for more (or PATCHBAY_LOG_LEVEL is set).
if (!process.env.PATCHBAY_LOG_LEVEL) setLogLevel('warn');

// ---------------------------------------------------------------------------------------------
// cleanup registry
// ---------------------------------------------------------------------------------------------

type Cleanup = () => unknown;
const cleanups: Cleanup[] = [];

/** Registers something to undo after the current test (run in reverse order). */
export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
}

afterEach(async () => {
  const errors: unknown[] = [];
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch (err) {
      errors.push(err);
    }
  }
  // Last line of defence: no fixture process this test started may outlive it.
  for (const pid of fixtureChildren()) killQuietly(pid, 'SIGKILL');
  if (errors.length > 0) throw errors[0];
});

// ---------------------------------------------------------------------------------------------
// config and engine
// ---------------------------------------------------------------------------------------------

export interface ServerEntry {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  shared?: boolean;
  stateless?: boolean;
  warmSpare?: boolean;
  requestTimeoutMs?: number;
  disabled?: boolean;
  [key: string]: unknown;
}

/** The everything fixture as a stdio server entry. */
export function everythingServer(extra: Partial<ServerEntry> = {}): ServerEntry {
  return { command: process.execPath, args: [EVERYTHING_SERVER], ...extra };
}

/** The probe fixture as a stdio server entry; `env` switches its behaviour (see the fixture). */
export function probeServer(extra: Partial<ServerEntry> = {}): ServerEntry {
  return { command: process.execPath, args: [PROBE_SERVER], ...extra };
}

export interface HubOptions {
  servers: Record<string, ServerEntry>;
  hub?: { maxBodyBytes?: number; allowedOrigins?: string[]; sessionIdleTimeoutMs?: number; maxSessions?: number };
  /** false = `--no-auth`. Default true. */
  auth?: boolean;
  tickMs?: number;
  keepAliveMs?: number;
  /**
   * Let the engine read the login shell's PATH (P31). Default false: PATCHBAY_NO_LOGIN_SHELL=1.
   * The engine caches the answer per process, so only a test file of its own can use this.
   */
  loginShell?: boolean;
}

export interface TestHub {
  engine: RunningEngine;
  url: string;
  port: number;
  /** The bearer token, or undefined with auth off. */
  token: string | undefined;
  dataDir: string;
  mcpUrl(serverId: string): string;
  /** `{ Authorization: 'Bearer …' }` or `{}` when auth is off. */
  authHeader(): Record<string, string>;
  close(): Promise<void>;
}

export async function startHub(options: HubOptions): Promise<TestHub> {
  if (options.loginShell) delete process.env.PATCHBAY_NO_LOGIN_SHELL;
  else process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-hub-test-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const config: Record<string, unknown> = { mcpServers: options.servers };
  if (options.hub) config.hub = options.hub;
  await writeFile(path.join(dataDir, 'config.json'), JSON.stringify(config, null, 2));
  const engine = await startEngine({
    dataDir,
    port: 0,
    auth: options.auth ?? true,
    ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
    ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
  });
  onCleanup(() => engine.close());
  const token = options.auth === false ? undefined : readFileSync(engine.tokenFile, 'utf8').trim();
  return {
    engine,
    url: engine.url,
    port: engine.port,
    token,
    dataDir,
    mcpUrl: (id) => `${engine.url}/mcp/${encodeURIComponent(id)}`,
    authHeader: (): Record<string, string> => (token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    close: () => engine.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// JSON-RPC shapes
// ---------------------------------------------------------------------------------------------

export type JsonRpcId = string | number;
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: JsonRpcId | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: JsonRpcError;
}

export function isResponse(m: JsonRpcMessage): boolean {
  return m.method === undefined && ('result' in m || 'error' in m);
}

/** The text of the first text content block of a tools/call result. */
export function toolText(m: JsonRpcMessage): string {
  if (m.error) throw new Error(`expected a result, got error ${m.error.code}: ${m.error.message}`);
  const result = m.result as { content?: Array<{ type: string; text?: string }> } | undefined;
  const block = result?.content?.find((c) => c.type === 'text');
  if (!block || typeof block.text !== 'string') throw new Error(`no text content in ${JSON.stringify(m).slice(0, 300)}`);
  return block.text;
}

export function initializeRequest(id: JsonRpcId = 0, protocolVersion = LATEST, capabilities: Record<string, unknown> = {}): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, capabilities, clientInfo: { name: 'patchbay-hub-test', version: '1.0.0' } },
  };
}

export function toolCall(id: JsonRpcId, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>): JsonRpcMessage {
  const params: Record<string, unknown> = { name, arguments: args };
  if (meta) params._meta = meta;
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

// ---------------------------------------------------------------------------------------------
// timing helpers (deadlines, never fixed sleeps)
// ---------------------------------------------------------------------------------------------

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `condition` until it is truthy or the deadline passes. */
export async function waitFor<T>(condition: () => T | Promise<T>, what: string, timeoutMs = 10_000, intervalMs = 20): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

// ---------------------------------------------------------------------------------------------
// processes (Linux /proc; other platforms fall back to kill(pid, 0))
// ---------------------------------------------------------------------------------------------

interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: rest[0]!, ppid: Number(rest[1]), pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

export function hasProc(): boolean {
  try {
    readdirSync('/proc/self');
    return true;
  } catch {
    return false;
  }
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procStat(pid);
  return stat === undefined ? !hasProc() : stat.state !== 'Z' && stat.state !== 'X';
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Live (non-zombie) direct children of a process. */
export function childrenOf(ppid: number = process.pid): number[] {
  if (!hasProc()) return [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat && stat.ppid === ppid && stat.state !== 'Z' && stat.state !== 'X') out.push(stat.pid);
  }
  return out;
}

/** Live child processes of this test process that run one of the test fixtures. */
export function fixtureChildren(): number[] {
  const fixtures = path.join(REPO_ROOT, 'test', 'fixtures');
  return childrenOf(process.pid).filter((pid) => cmdline(pid).includes(fixtures));
}

export function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

// ---------------------------------------------------------------------------------------------
// SSE
// ---------------------------------------------------------------------------------------------

export interface SseEvent {
  kind: 'event';
  id: string | undefined;
  event: string | undefined;
  data: string;
  retry: number | undefined;
}
export interface SseComment {
  kind: 'comment';
  text: string;
}
export type SseItem = SseEvent | SseComment;

/** Parses an SSE byte stream into events and comments as they arrive. */
export async function* parseSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseItem> {
  const decoder = new TextDecoder();
  let buffer = '';
  let id: string | undefined;
  let event: string | undefined;
  let retry: number | undefined;
  let data: string[] | undefined;
  let any = false;
  const flushEvent = (): SseEvent | undefined => {
    const out = any ? ({ kind: 'event', id, event, data: (data ?? []).join('\n'), retry } as SseEvent) : undefined;
    id = undefined;
    event = undefined;
    retry = undefined;
    data = undefined;
    any = false;
    return out;
  };
  const lines = function* (final: boolean): Generator<string> {
    for (;;) {
      const nl = buffer.search(/\r\n|\n|\r/);
      if (nl === -1 || (!final && nl === buffer.length - 1 && buffer[nl] === '\r')) break;
      const len = buffer.startsWith('\r\n', nl) ? 2 : 1;
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + len);
      yield line;
    }
  };
  const onLine = (line: string): SseItem | undefined => {
    if (line === '') return flushEvent();
    if (line.startsWith(':')) return { kind: 'comment', text: line.slice(1).replace(/^ /, '') };
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    any = true;
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') (data ??= []).push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
    return undefined;
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) {
      const item = onLine(line);
      if (item) yield item;
    }
  }
  buffer += decoder.decode();
  for (const line of lines(true)) {
    const item = onLine(line);
    if (item) yield item;
  }
  // An unterminated event at the end of the stream is discarded, as the SSE spec says.
}

/** Reads an SSE stream item by item, each read bounded by a deadline. */
export class SseReader {
  private readonly iterator: AsyncIterator<SseItem>;
  /** Every item read so far. */
  readonly seen: SseItem[] = [];
  ended = false;

  constructor(body: AsyncIterable<Uint8Array | string>) {
    this.iterator = parseSse(body)[Symbol.asyncIterator]();
  }

  /** The next item (event or comment), or undefined at the end of the stream. */
  async next(timeoutMs = 10_000): Promise<SseItem | undefined> {
    if (this.ended) return undefined;
    const r = await withTimeout(this.iterator.next(), timeoutMs, 'the next SSE item');
    if (r.done) {
      this.ended = true;
      return undefined;
    }
    this.seen.push(r.value);
    return r.value;
  }

  /** The next event (comments skipped), or undefined at the end. */
  async nextEvent(timeoutMs = 10_000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const item = await this.next(Math.max(1, deadline - Date.now()));
      if (!item || item.kind === 'event') return item;
    }
  }

  /** The next event that carries a JSON-RPC message (priming events skipped), with its event. */
  async nextMessage(timeoutMs = 10_000): Promise<{ message: JsonRpcMessage; event: SseEvent } | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = await this.nextEvent(Math.max(1, deadline - Date.now()));
      if (!event) return undefined;
      if (event.data.trim() === '') continue;
      return { message: JSON.parse(event.data) as JsonRpcMessage, event };
    }
  }

  /** Reads to the end of the stream and returns every item read after this call. */
  async rest(timeoutMs = 10_000): Promise<SseItem[]> {
    const deadline = Date.now() + timeoutMs;
    const out: SseItem[] = [];
    for (;;) {
      const item = await this.next(Math.max(1, deadline - Date.now()));
      if (!item) return out;
      out.push(item);
    }
  }

  /** Stops reading (cancels the underlying body). */
  async cancel(): Promise<void> {
    this.ended = true;
    await this.iterator.return?.(undefined).catch(() => undefined);
  }
}

export function eventsOf(items: SseItem[]): SseEvent[] {
  return items.filter((i): i is SseEvent => i.kind === 'event');
}

export function messagesOf(items: SseItem[]): JsonRpcMessage[] {
  return eventsOf(items)
    .filter((e) => e.data.trim() !== '')
    .map((e) => JSON.parse(e.data) as JsonRpcMessage);
}

// ---------------------------------------------------------------------------------------------
// raw HTTP
// ---------------------------------------------------------------------------------------------

export interface PostOptions {
  sessionId?: string;
  protocolVersion?: string;
  /** Default ACCEPT_BOTH; null sends no Accept header. */
  accept?: string | null;
  /** Default application/json; null sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Default true: send the hub token. */
  auth?: boolean;
}

function requestHeaders(hub: TestHub, o: PostOptions, defaults: { accept: string; contentType: string | null }): Record<string, string> {
  const h: Record<string, string> = {};
  const accept = o.accept === undefined ? defaults.accept : o.accept;
  if (accept !== null) h.Accept = accept;
  const contentType = o.contentType === undefined ? defaults.contentType : o.contentType;
  if (contentType !== null) h['Content-Type'] = contentType;
  if (o.auth !== false) Object.assign(h, hub.authHeader());
  if (o.sessionId !== undefined) h['Mcp-Session-Id'] = o.sessionId;
  if (o.protocolVersion !== undefined) h['MCP-Protocol-Version'] = o.protocolVersion;
  return { ...h, ...(o.headers ?? {}) };
}

/** POSTs a body (a value is JSON-encoded; a string is sent as is) to /mcp/<serverId>. */
export async function post(hub: TestHub, serverId: string, body: unknown, o: PostOptions = {}): Promise<Response> {
  const res = await fetch(hub.mcpUrl(serverId), {
    method: 'POST',
    headers: requestHeaders(hub, o, { accept: ACCEPT_BOTH, contentType: 'application/json' }),
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  trackResponse(res);
  return res;
}

export async function get(hub: TestHub, serverId: string, o: PostOptions & { lastEventId?: string } = {}): Promise<Response> {
  const headers = requestHeaders(hub, o, { accept: 'text/event-stream', contentType: null });
  if (o.lastEventId !== undefined) headers['Last-Event-ID'] = o.lastEventId;
  const res = await fetch(hub.mcpUrl(serverId), { method: 'GET', headers, ...(o.signal ? { signal: o.signal } : {}) });
  trackResponse(res);
  return res;
}

export async function del(hub: TestHub, serverId: string, o: PostOptions = {}): Promise<Response> {
  const res = await fetch(hub.mcpUrl(serverId), {
    method: 'DELETE',
    headers: requestHeaders(hub, o, { accept: ACCEPT_BOTH, contentType: null }),
  });
  trackResponse(res);
  return res;
}

/** Open response bodies are cancelled after the test so no connection outlives it. */
function trackResponse(res: Response): void {
  onCleanup(() => {
    if (res.body && !res.bodyUsed) return res.body.cancel().catch(() => undefined);
    return undefined;
  });
}

/** Reads a JSON error body and checks its JSON-RPC shape. */
export async function jsonRpcErrorOf(res: Response): Promise<JsonRpcMessage & { error: JsonRpcError }> {
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  if (!type.includes('application/json')) throw new Error(`expected a JSON body, got ${type}: ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as JsonRpcMessage;
  if (body.jsonrpc !== '2.0' || !body.error || typeof body.error.code !== 'number' || typeof body.error.message !== 'string') {
    throw new Error(`not a JSON-RPC error body: ${text.slice(0, 300)}`);
  }
  return body as JsonRpcMessage & { error: JsonRpcError };
}

/** Reads every JSON-RPC message of a response, whether it is JSON or an SSE stream. */
export async function messagesOfResponse(res: Response, timeoutMs = 10_000): Promise<{ messages: JsonRpcMessage[]; items: SseItem[] }> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    const reader = new SseReader(res.body!);
    const items = await reader.rest(timeoutMs);
    return { messages: messagesOf(items), items };
  }
  const text = await withTimeout(res.text(), timeoutMs, 'a JSON response body');
  if (text === '') return { messages: [], items: [] };
  const value = JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[];
  return { messages: Array.isArray(value) ? value : [value], items: [] };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header names exactly as sent on the wire, alternating with values. */
  rawHeaders: string[];
  text: string;
}

export interface RawRequest {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Default true: send `Host: 127.0.0.1:<port>` unless headers name one. */
  setHost?: boolean;
}

/** One request on a fresh connection with node:http: any Host header, any path, raw header names. */
export function rawRequest(r: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(r.headers ?? {}) };
    const hasHost = Object.keys(headers).some((k) => k.toLowerCase() === 'host');
    if (!hasHost && r.setHost !== false) headers.Host = `127.0.0.1:${r.port}`;
    if (r.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(r.body));
    const req = http.request({ host: '127.0.0.1', port: r.port, method: r.method ?? 'GET', path: r.path, headers, agent: false, setHost: false });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(r.body);
  });
}

/** Sends bytes on a raw TCP connection and returns everything the server writes until it closes. */
export function rawExchange(port: number, bytes: string, timeoutMs = 10_000): Promise<string> {
  return withTimeout(
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      onCleanup(() => socket.destroy());
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        // A complete response with Content-Length is enough; we need not wait for the close.
        const text = Buffer.concat(chunks).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        const len = /content-length:\s*(\d+)/i.exec(text.slice(0, split));
        if (split !== -1 && len && Buffer.byteLength(text.slice(split + 4)) >= Number(len[1])) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
      socket.write(bytes);
    }),
    timeoutMs,
    'a raw TCP exchange',
  );
}

export interface UploadResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Bytes of the body written before the response arrived (or in total). */
  sent: number;
}

/**
 * POSTs a large body in chunks with node:http, watching for an early answer: the server may
 * answer (413) before the upload is complete. A connection reset before any response rejects.
 */
export function uploadLarge(opts: { port: number; path: string; headers: Record<string, string>; size: number; chunked?: boolean }): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${opts.port}`, ...opts.headers };
    if (!opts.chunked) headers['Content-Length'] = String(opts.size);
    const req = http.request({ host: '127.0.0.1', port: opts.port, method: 'POST', path: opts.path, headers, agent: false, setHost: false });
    onCleanup(() => req.destroy());
    const chunk = Buffer.alloc(64 * 1024, 'a');
    // The body starts like JSON so a server that parses early sees a string, not garbage.
    const head = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"');
    let sent = 0;
    let responded = false;
    let settled = false;
    const pump = (): void => {
      while (!responded && sent < opts.size) {
        const piece = sent === 0 ? head : chunk.subarray(0, Math.min(chunk.length, opts.size - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!responded) req.end();
    };
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(new Error(`upload failed after ${sent} of ${opts.size} bytes, before any response: ${err.message}`));
    });
    req.on('response', (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), sent });
        req.destroy();
      });
      res.on('error', (err) => {
        if (settled) return;
        settled = true;
        reject(new Error(`the response to the upload broke off: ${err.message}`));
      });
    });
    pump();
  });
}

/** A GET (or any request) whose response is read incrementally with node:http. */
export function rawStream(r: RawRequest): Promise<{ res: http.IncomingMessage; reader: SseReader; close(): void }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${r.port}`, ...(r.headers ?? {}) };
    if (r.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(r.body));
    const req = http.request({ host: '127.0.0.1', port: r.port, method: r.method ?? 'GET', path: r.path, headers, agent: false, setHost: false });
    const close = (): void => {
      req.destroy();
    };
    onCleanup(close);
    req.on('error', reject);
    req.on('response', (res) => resolve({ res, reader: new SseReader(res), close }));
    req.end(r.body);
  });
}

// ---------------------------------------------------------------------------------------------
// a small MCP client over raw HTTP
// ---------------------------------------------------------------------------------------------

export interface CallOutcome {
  /** The response to the request. */
  response: JsonRpcMessage;
  /** Every JSON-RPC message of the POST's stream, in order (the response included). */
  messages: JsonRpcMessage[];
  items: SseItem[];
  http: Response;
}

export class TestClient {
  sessionId: string | undefined;
  /** The version the server answered initialize with. */
  protocolVersion: string | undefined;
  initializeResponse: Response | undefined;
  initializeResult: Record<string, unknown> | undefined;
  private nextId = 1;

  constructor(
    readonly hub: TestHub,
    readonly serverId: string,
  ) {}

  /** initialize + notifications/initialized; returns the session id. */
  async connect(opts: { protocolVersion?: string; capabilities?: Record<string, unknown> } = {}): Promise<string | undefined> {
    const res = await post(this.hub, this.serverId, initializeRequest(0, opts.protocolVersion ?? LATEST, opts.capabilities ?? {}));
    this.initializeResponse = res;
    const { messages } = await messagesOfResponse(res);
    const answer = messages.find((m) => m.id === 0);
    if (res.status !== 200 || !answer || !answer.result) {
      throw new Error(`initialize failed: HTTP ${res.status} ${JSON.stringify(messages).slice(0, 500)}`);
    }
    this.initializeResult = answer.result as Record<string, unknown>;
    this.protocolVersion = String(this.initializeResult.protocolVersion);
    this.sessionId = res.headers.get('mcp-session-id') ?? undefined;
    const note = await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    if (note.status !== 202) throw new Error(`notifications/initialized: expected 202, got ${note.status} ${await note.text()}`);
    await note.body?.cancel();
    return this.sessionId;
  }

  /** Headers the session sends on every request. */
  options(extra: PostOptions = {}): PostOptions {
    const o: PostOptions = { ...extra };
    if (this.sessionId !== undefined && o.sessionId === undefined) o.sessionId = this.sessionId;
    if (this.protocolVersion !== undefined && o.protocolVersion === undefined && this.protocolVersion >= '2025-06-18') {
      o.protocolVersion = this.protocolVersion;
    }
    return o;
  }

  post(body: unknown, extra: PostOptions = {}): Promise<Response> {
    return post(this.hub, this.serverId, body, this.options(extra));
  }

  get(extra: PostOptions & { lastEventId?: string } = {}): Promise<Response> {
    return get(this.hub, this.serverId, { ...this.options(extra), ...(extra.lastEventId !== undefined ? { lastEventId: extra.lastEventId } : {}) });
  }

  delete(extra: PostOptions = {}): Promise<Response> {
    return del(this.hub, this.serverId, this.options(extra));
  }

  newId(): number {
    return this.nextId++;
  }

  /** Sends one request and reads its stream (or JSON body) to the end. */
  async request(method: string, params: Record<string, unknown> = {}, id: JsonRpcId = this.newId(), timeoutMs = 15_000): Promise<CallOutcome> {
    const res = await this.post({ jsonrpc: '2.0', id, method, params });
    if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${await res.text()}`);
    const { messages, items } = await messagesOfResponse(res, timeoutMs);
    const response = messages.find((m) => isResponse(m) && m.id === id);
    if (!response) throw new Error(`${method}: no response with id ${JSON.stringify(id)} in ${JSON.stringify(messages).slice(0, 500)}`);
    return { response, messages, items, http: res };
  }

  async callTool(name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>, timeoutMs = 15_000): Promise<CallOutcome> {
    const params: Record<string, unknown> = { name, arguments: args };
    if (meta) params._meta = meta;
    return this.request('tools/call', params, this.newId(), timeoutMs);
  }

  /** The text a tool returned. */
  async tool(name: string, args: Record<string, unknown> = {}): Promise<string> {
    return toolText((await this.callTool(name, args)).response);
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<Response> {
    const body: JsonRpcMessage = { jsonrpc: '2.0', method };
    if (params) body.params = params;
    const res = await this.post(body);
    await res.body?.cancel();
    return res;
  }
}

/** Starts a client and connects it (initialize + notifications/initialized). */
export async function connect(hub: TestHub, serverId: string, opts: { protocolVersion?: string; capabilities?: Record<string, unknown> } = {}): Promise<TestClient> {
  const client = new TestClient(hub, serverId);
  await client.connect(opts);
  return client;
}

/** initialize + notifications/initialized over raw HTTP; returns the session id (undefined for stateless servers). */
export async function initSession(hub: TestHub, serverId: string, opts: { protocolVersion?: string; capabilities?: Record<string, unknown> } = {}): Promise<string | undefined> {
  return new TestClient(hub, serverId).connect(opts);
}

/** The pid a fixture child reports through its `whoami` tool. */
export async function childPid(client: TestClient): Promise<number> {
  return Number(await client.tool('whoami'));
}
