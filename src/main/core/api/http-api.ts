/**
 * The HTTP bridge for the API: `POST /api/call/<name>` with a JSON body answers
 * `{ ok, value | code, message }` (always HTTP 200 for a handled call, so one code path reads it);
 * `GET /api/events?since=<cursor>` is a server-sent event stream of every event, ended when its
 * subscriber stops reading and falls too far behind (it resumes from its cursor). Mounted on the
 * hub's port behind its Host, Origin and token checks (see HttpRoute).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SseWriter } from '../protocol/sse-writer.js';
import { readBody } from '../protocol/body.js';
import { sendJson } from '../protocol/http-util.js';
import type { HttpRoute } from '../protocol/http-route.js';
import type { ApiRegistry } from './api-registry.js';

const MAX_API_BODY = 4 * 1024 * 1024;

export function apiRoute(registry: ApiRegistry, options: { keepAliveMs?: number } = {}): HttpRoute {
  return {
    prefix: '/api',
    auth: 'token',
    handle: async (req, res, path, cors) => {
      if (path.startsWith('/api/call/')) {
        if (req.method !== 'POST') return sendJson(res, 405, { ok: false, code: 'method_not_allowed', message: 'API calls are POST' }, { ...cors, Allow: 'POST' });
        const name = decodeName(path.slice('/api/call/'.length));
        // `/api/call/%E0%A4%A`, `%`, `%ZZ`: a client's mistake (400), never a crash of ours (500).
        if (name === undefined) return sendJson(res, 400, { ok: false, code: 'bad_request', message: 'The call name in the URL has malformed percent-encoding' }, cors);
        return handleCall(registry, req, res, name, cors);
      }
      if (path === '/api/events') {
        if (req.method !== 'GET') return sendJson(res, 405, { ok: false, code: 'method_not_allowed', message: 'the event stream is GET' }, { ...cors, Allow: 'GET' });
        return handleEvents(registry, req, res, cors, options.keepAliveMs ?? 15_000);
      }
      if (path === '/api' || path === '/api/calls') return sendJson(res, 200, { ok: true, value: registry.callNames() }, cors);
      sendJson(res, 404, { ok: false, code: 'not_found', message: `No API endpoint ${path}` }, cors);
    },
  };
}

function decodeName(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

async function handleCall(registry: ApiRegistry, req: IncomingMessage, res: ServerResponse, name: string, cors: Record<string, string>): Promise<void> {
  if (!registry.has(name)) return sendJson(res, 404, { ok: false, code: 'unknown_call', message: `There is no API call '${name}'` }, cors);
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // JSON only: a cross-site form post cannot send it without a preflight the Origin check refuses.
  if (contentType !== 'application/json') return sendJson(res, 415, { ok: false, code: 'unsupported_media_type', message: 'Content-Type must be application/json' }, cors);
  const body = await readBody(req, MAX_API_BODY);
  if (!body.ok) {
    if (body.reason === 'aborted') return;
    return sendJson(res, 413, { ok: false, code: 'too_large', message: `The request body is over ${MAX_API_BODY} bytes` }, cors);
  }
  let input: unknown;
  try {
    input = body.text.trim() === '' ? {} : JSON.parse(body.text);
  } catch (err) {
    return sendJson(res, 400, { ok: false, code: 'parse_error', message: `The body is not valid JSON: ${(err as Error).message}` }, cors);
  }
  sendJson(res, 200, await registry.invoke(name, input), cors);
}

/**
 * Most bytes an `/api/events` subscriber that stopped reading may leave waiting in the hub before
 * its response is ended. API events are small notes for the UI (a status, a config problem, a
 * playground message) that a reading tab takes at once; 8 MiB is thousands of them behind, and a
 * subscriber that far behind (a stuck script, a tab whose machine went to sleep) is better ended
 * and resynced than fed, while the hub must not keep every event for it meanwhile. Twice the
 * registry's replay backlog (api-registry.ts DEFAULT_BACKLOG_BYTES), so a resumption's replay
 * alone never comes near it.
 */
export const MAX_SUBSCRIBER_BACKLOG_BYTES = 8 * 1024 * 1024;

function handleEvents(registry: ApiRegistry, req: IncomingMessage, res: ServerResponse, cors: Record<string, string>, keepAliveMs: number): void {
  const since = resumeCursor(req);
  const writer = new SseWriter(res);
  writer.open(cors);
  // Flow control: measured only once a write was refused (and until the response drains), so a
  // subscriber that merely takes its time over one large event is not cut off for it; past the
  // cap the response is ended. Ending loses the subscriber nothing it can't get back: what was
  // written still reaches it (end() is graceful), an EventSource then reconnects by itself with
  // `Last-Event-ID` (the last cursor it got) and the UI's bridge reopens with `?since=`
  // (renderer/bridge/http-bridge.ts); either way `subscribe` replays what the registry's backlog
  // still holds after that cursor, and `api.ready` says `complete: false` when some of it was
  // evicted, which the bridge turns into a resync (`resync: !info.complete`).
  let live = false;
  let ended = false;
  // `stop` and `giveUp` run only once `sub` and `timer` exist (on close; past the replay).
  const stop = (): void => {
    ended = true;
    clearInterval(timer);
    sub.unsubscribe();
  };
  const giveUp = (): void => {
    const behind = Math.round(writer.backlog / 1048576);
    stop();
    writer.end(`patchbay: this subscriber fell ${behind} MiB behind and the stream was ended; resume with Last-Event-ID or ?since=<cursor>`);
  };
  const write = (channel: string, cursor: number, data: string): void => {
    if (ended) return;
    // API events are small: what waits is what the subscriber is behind by, judged by bytes alone.
    if (live && writer.blocked && writer.backlog > MAX_SUBSCRIBER_BACKLOG_BYTES) return giveUp();
    writer.event(data, String(cursor), channel);
  };
  const sub = registry.subscribe((e, data) => {
    if (data !== undefined) write(e.channel, e.cursor, data);
  }, since);
  // Tell a resuming subscriber that it missed events and must refetch, and where the stream stands.
  write('api.ready', registry.lastCursor, JSON.stringify({ cursor: registry.lastCursor, complete: sub.complete }));
  // From here on the subscriber is held to the cap (the replay above is bounded by the backlog).
  live = true;
  const timer = setInterval(() => {
    if (!writer.blocked) writer.comment('keepalive');
  }, keepAliveMs);
  timer.unref();
  res.once('close', stop);
}

/**
 * Where a subscriber resumes: `?since=<cursor>` or `Last-Event-ID`, the later of the two when
 * both come (an EventSource reconnecting by itself repeats the URL it was opened with, `since` and
 * all, and names the last event it got in the header), undefined for a fresh subscriber.
 */
function resumeCursor(req: IncomingMessage): number | undefined {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const header = req.headers['last-event-id'];
  const found = [url.searchParams.get('since'), Array.isArray(header) ? header[0] : header]
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map(Number)
    .filter((n) => Number.isFinite(n));
  return found.length > 0 ? Math.max(...found) : undefined;
}
