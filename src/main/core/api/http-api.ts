/**
 * The HTTP bridge for the API: `POST /api/call/<name>` with a JSON body answers
 * `{ ok, value | code, message }` (always HTTP 200 for a handled call, so one code path reads it);
 * `GET /api/events?since=<cursor>` is a server-sent event stream of every event. Mounted on the
 * hub's port behind its Host, Origin and token checks (see HttpRoute).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
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

function handleEvents(registry: ApiRegistry, req: IncomingMessage, res: ServerResponse, cors: Record<string, string>, keepAliveMs: number): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const sinceText = url.searchParams.get('since') ?? req.headers['last-event-id'];
  const since = sinceText === undefined || sinceText === null || sinceText === '' ? undefined : Number(sinceText);
  res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  const write = (channel: string, cursor: number, payload: unknown): void => {
    res.write(`id: ${cursor}\nevent: ${channel}\ndata: ${JSON.stringify(payload)}\n\n`);
  };
  const sub = registry.subscribe((e) => write(e.channel, e.cursor, e.payload), Number.isFinite(since) ? since : undefined);
  // Tell a resuming subscriber that it missed events and must refetch, and where the stream stands.
  write('api.ready', registry.lastCursor, { cursor: registry.lastCursor, complete: sub.complete });
  const timer = setInterval(() => res.write(': keepalive\n\n'), keepAliveMs);
  timer.unref();
  res.once('close', () => {
    clearInterval(timer);
    sub.unsubscribe();
  });
}
